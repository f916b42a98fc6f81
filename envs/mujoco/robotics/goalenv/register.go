package goalenv

import (
	"io/fs"
	"path"
	"strings"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/mujoco"
	"github.com/rlpool/rlpool/option"
)

// Register adds a task id whose options are the tagged struct type O (decoded from
// the family option table into a copy of defaults, with envs.DecodeOptions' errors),
// and whose envs build makes from them. The spec reports the options it was made with.
func Register[O any](id, family string, defaults O, build func(o O) (*Config, error)) {
	envs.Register(envs.Task{ID: id, Family: family, New: func(m map[string]any) (envpool.Spec, envpool.Factory, error) {
		o := defaults
		if err := envs.DecodeOptions(m, &o); err != nil {
			return envpool.Spec{}, nil, err
		}
		c, err := build(o)
		if err != nil {
			return envpool.Spec{}, nil, err
		}
		spec := c.Spec()
		spec.Options = option.Values(&o)
		return spec, func(_ int, seed int64) (envpool.Env, error) { return NewEnv(c, seed) }, nil
	}})
}

// LoadModel compiles the model file dir/name of fsys with the other XML files of dir
// (the files it includes) and the meshes and textures of the gzipped tar archive
// dir/archive, once per process: later calls return the same compiled model, which
// the envs copy.
func LoadModel(fsys fs.FS, dir, name, archive string) (*mujoco.Model, error) {
	return mujoco.CachedModel("goalenv "+dir+"/"+name, func() (*mujoco.Model, error) {
		if err := mujoco.Load(); err != nil {
			return nil, err
		}
		files := map[string][]byte{}
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".xml") {
				continue
			}
			if files[e.Name()], err = fs.ReadFile(fsys, path.Join(dir, e.Name())); err != nil {
				return nil, err
			}
		}
		if err := mujoco.AddArchive(files, fsys, path.Join(dir, archive)); err != nil {
			return nil, err
		}
		return mujoco.LoadModelFiles(name, files)
	})
}
