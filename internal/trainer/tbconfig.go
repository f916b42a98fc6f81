package trainer

import (
	"fmt"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/rlpool/rlpool/internal/tensorboard"
)

// writeTBConfig gives the run's TensorBoard events its settings: the resolved config
// as a text summary (tag "config", the TOML of config.toml in a fenced block) and the
// hparams plugin's session-start summary with the config flattened to dotted keys, so
// that TensorBoard's Text and HParams tabs and `wandb sync --sync-tensorboard` show
// them beside the curves. A resumed run's new event file gets them again (with any
// -set overrides applied).
func writeTBConfig(tb *tensorboard.Writer, text []byte) error {
	if tb == nil {
		return nil
	}
	hp, err := flattenConfig(text)
	if err != nil {
		return err
	}
	if err := tb.AddText(0, "config", "```toml\n"+string(text)+"```\n"); err != nil {
		return err
	}
	if err := tb.AddHParams(hp); err != nil {
		return err
	}
	return tb.Flush()
}

// flattenConfig decodes a config's TOML and flattens it to dotted keys
// ("ppo.learning_rate") of scalar values: numbers, strings and bools as they are,
// times and arrays (net.hidden = [64, 64]) as their TOML-like strings.
func flattenConfig(text []byte) (map[string]any, error) {
	var tree map[string]any
	if err := toml.Unmarshal(text, &tree); err != nil {
		return nil, fmt.Errorf("train: flatten config: %w", err)
	}
	out := map[string]any{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			key := prefix + k
			switch v := v.(type) {
			case map[string]any:
				walk(key+".", v)
			case bool, string, int64, float64:
				out[key] = v
			case time.Time:
				out[key] = v.Format(time.RFC3339Nano)
			default:
				out[key] = tomlString(v)
			}
		}
	}
	walk("", tree)
	return out, nil
}

// tomlString writes an array (or anything else) compactly, strings quoted:
// [64, 64], ["a", "b"].
func tomlString(v any) string {
	switch v := v.(type) {
	case []any:
		s := "["
		for i, x := range v {
			if i > 0 {
				s += ", "
			}
			s += tomlString(x)
		}
		return s + "]"
	case []map[string]any:
		return fmt.Sprint(v)
	case string:
		return fmt.Sprintf("%q", v)
	}
	return fmt.Sprint(v)
}
