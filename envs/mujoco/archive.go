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
// embedded file system) to files under their base names, as LoadModelFiles takes
// them: MuJoCo's file system finds a model's meshdir/file.stl by its base name. An
// archive that does not exist adds nothing, so that a family can look for one per
// model. Meshes and textures ship compressed this way; the archive is decompressed on
// every call rather than held in memory, since families cache compiled models.
func AddArchive(fsys fs.FS, files map[string][]byte, name string) error {
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
