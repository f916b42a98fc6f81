// Package deps pins the project's third-party modules while the packages that use them
// are written; it is removed once every dependency has a real importer.
package deps

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/ebitengine/purego"
	_ "gonum.org/v1/plot"
	_ "golang.org/x/sys/unix"
	_ "gorgonia.org/gorgonia"
	_ "gorgonia.org/tensor"
)
