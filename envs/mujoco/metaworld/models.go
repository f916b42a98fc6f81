package metaworld

import (
	"embed"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/rlpool/rlpool/envs/mujoco"
)

// modelsArchive holds the MJCF documents the tasks load (sawyer_xyz/*.xml and the scene
// and object files they include) and the STL meshes those reference, as one gzipped tar
// (assets/README.md lists its origin).
//
//go:embed assets/models.tar.gz
var modelsArchive embed.FS

// fileTexture matches a <texture> element that loads a picture file; namedTexture
// captures the name of such an element.
var (
	fileTexture  = regexp.MustCompile(`<texture\b[^>]*\bfile="[^"]*"[^>]*/>`)
	namedTexture = regexp.MustCompile(`\bname="([^"]*)"`)
)

// withoutFileTextures drops the picture-file textures from an MJCF document, and the
// texture attributes of the materials that use them: the pictures are not shipped (they
// would be ten times the size of the meshes), so materials keep their colours only.
// Physics does not read textures. removed collects the dropped textures' names over a
// model's files, since a texture and the material using it may sit in different
// files; the second pass (stripMaterialTextures) removes the references.
func withoutFileTextures(doc string, removed map[string]bool) string {
	return fileTexture.ReplaceAllStringFunc(doc, func(el string) string {
		if m := namedTexture.FindStringSubmatch(el); m != nil {
			removed[m[1]] = true
		}
		return ""
	})
}

// materialTexture matches a texture="..." attribute.
var materialTexture = regexp.MustCompile(`\s+texture="([^"]*)"`)

// stripMaterialTextures removes the texture attributes naming removed textures.
func stripMaterialTextures(doc string, removed map[string]bool) string {
	return materialTexture.ReplaceAllStringFunc(doc, func(attr string) string {
		if removed[materialTexture.FindStringSubmatch(attr)[1]] {
			return ""
		}
		return attr
	})
}

// modelFiles are the archive's files by base name with file textures removed from
// the documents, read once.
var modelFiles = sync.OnceValues(func() (map[string][]byte, error) {
	files := map[string][]byte{}
	if err := mujoco.AddArchive(files, modelsArchive, "assets/models.tar.gz"); err != nil {
		return nil, fmt.Errorf("metaworld: %w", err)
	}
	removed := map[string]bool{}
	for n, b := range files {
		if strings.HasSuffix(n, ".xml") {
			files[n] = []byte(withoutFileTextures(string(b), removed))
		}
	}
	for n, b := range files {
		if strings.HasSuffix(n, ".xml") {
			files[n] = []byte(stripMaterialTextures(string(b), removed))
		}
	}
	return files, nil
})

// loadModel compiles a task's document (a base name such as sawyer_reach_v3.xml) once
// and returns the shared compiled model.
func loadModel(file string) (*mujoco.Model, error) {
	// envs copy the shared model, since resets move bodies and sites of their own.
	return mujoco.CachedModel("metaworld "+file, func() (*mujoco.Model, error) {
		files, err := modelFiles()
		if err != nil {
			return nil, err
		}
		if _, ok := files[file]; !ok {
			return nil, fmt.Errorf("metaworld: no model file %s among the embedded models", file)
		}
		m, err := mujoco.LoadModelFiles(file, files)
		if err != nil {
			return nil, fmt.Errorf("metaworld: %w", err)
		}
		return m, nil
	})
}
