package mujoco

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
)

// AddArchive adds the regular files of the gzipped tar archive name in fsys (an
// embedded file system, usually) to files under their base names, as LoadModelFiles
// takes them: MuJoCo's file system finds a model's meshdir/file.stl by its base name.
// Families ship their meshes and textures this way so that the repository and the
// binary stay small. An archive fsys does not hold adds nothing (a model without
// meshes has none). The archive is decompressed on every call rather than held in
// memory, since compiled models are cached by their families.
func AddArchive(files map[string][]byte, fsys fs.FS, name string) error {
	gz, err := fs.ReadFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
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
