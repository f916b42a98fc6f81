package mujoco

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"path"
)

// AddArchive adds the regular files of a gzipped tar archive (gz) to files under their
// base names, as LoadModelFiles takes them: MuJoCo's file system finds an included
// document or a model's meshdir/file.stl by its base name. Families embed their models'
// meshes this way to keep the repository and the binary small; name labels errors.
func AddArchive(files map[string][]byte, name string, gz []byte) error {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", name, h.Name, err)
		}
		files[path.Base(h.Name)] = b
	}
}
