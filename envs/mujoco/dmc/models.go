package dmc

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/rlpool/rlpool/envs/mujoco"
)

//go:embed assets/*.xml assets/common/*.xml assets/*_assets.tar.gz
var assets embed.FS

// Domains lists the suite's model files by domain name (acrobot, ..., walker), sorted.
func Domains() []string {
	entries, _ := assets.ReadDir("assets")
	var out []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".xml"); ok && !e.IsDir() {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// ModelXML returns a domain's MJCF document as the suite ships it.
func ModelXML(domain string) ([]byte, error) {
	b, err := assets.ReadFile("assets/" + domain + ".xml")
	if err != nil {
		return nil, fmt.Errorf("dmc: no model for domain %q (domains: %s)", domain, strings.Join(Domains(), ", "))
	}
	return b, nil
}

// LoadModel compiles a domain's document (xml: the suite's, or an edited copy) with the
// common files it includes and, for a domain with meshes and textures (dog), the files
// of its archive.
func LoadModel(domain string, xml []byte) (*mujoco.Model, error) {
	files := map[string][]byte{domain + ".xml": xml}
	common, _ := assets.ReadDir("assets/common")
	for _, e := range common {
		b, err := assets.ReadFile(path.Join("assets/common", e.Name()))
		if err != nil {
			return nil, err
		}
		files[e.Name()] = b
	}
	if err := addArchive(files, "assets/"+domain+"_assets.tar.gz"); err != nil {
		return nil, fmt.Errorf("dmc: the %s model's files: %w", domain, err)
	}
	return mujoco.LoadModelFiles(domain+".xml", files)
}

// addArchive adds the regular files of an embedded gzipped tar archive to files under
// their base names (MuJoCo's file system finds a model's meshdir/file.stl by its base
// name). An archive that is not embedded adds nothing: most domains have none. The
// archive is decompressed on every call rather than held in memory, since compiled
// models are cached per document.
func addArchive(files map[string][]byte, name string) error {
	gz, err := assets.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return mujoco.AddArchive(files, name, gz)
}
