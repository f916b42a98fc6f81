package archtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envs"
	_ "github.com/rlpool/rlpool/envs/all" // every family's task ids
)

// taskIDHomes are the folders where task ids belong: the families that register them,
// the bundled configs that name them and the benchmark scripts that run them.
var taskIDHomes = []string{"envs", "configs", "scripts"}

// No program text outside envs/ and configs/ names a task id (tests aside): the tools
// above the families (play, render, the Python library, train's subcommands) know a
// task only through the registry and the capabilities its family declares, so a new
// family needs no change there.
func TestNoTaskIDOutsideFamilies(t *testing.T) {
	ids := envs.List()
	if len(ids) < 100 {
		t.Fatalf("only %d task ids registered", len(ids))
	}
	quoted := make([]string, len(ids))
	for i, id := range ids {
		quoted[i] = regexp.QuoteMeta(id)
	}
	// An id as a whole word: not part of a longer name or path.
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_./-])(` + strings.Join(quoted, "|") + `)($|[^A-Za-z0-9_-])`)
	root := filepath.Join("..", "..")
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || d.Name() == "runs" || d.Name() == "tests" {
				return filepath.SkipDir
			}
			for _, home := range taskIDHomes {
				if rel == home {
					return filepath.SkipDir
				}
			}
			return nil
		}
		name := d.Name()
		program := strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") ||
			strings.HasSuffix(name, ".py") && !strings.HasPrefix(name, "test_")
		if !program {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := re.FindStringSubmatch(line); m != nil {
				found = append(found, rel+":"+strconv.Itoa(i+1)+": "+m[2])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("task ids outside %v (a family's capability or a bundled config should carry them):\n%s",
			taskIDHomes, strings.Join(found, "\n"))
	}
}
