package config

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rlpool/rlpool/agent/model"
)

// networkKey is the key a learner section used for the network kind before it moved
// to [net] (model.NetworkKey). Configs and run directories written then hold it, in
// every learner's section: it is still read, from run.algo's section, and the others'
// copies (which no run used) are dropped.
const networkKey = "network"

// moveDeprecated rewrites the deprecated keys of a decoded config and its overrides
// into their current places and returns the overrides so rewritten and one note per
// key moved. A learner's network key (ppo.network, impala.network) becomes
// net.network; a file that sets both to different values is an error, added to errs,
// naming both keys. Overrides keep their order, so a later -set still wins over the
// file.
func moveDeprecated(raw map[string]any, overrides []string, errs *[]error) ([]string, []string) {
	var notes []string
	noted := map[string]bool{}
	note := func(old string) {
		if !noted[old] {
			noted[old] = true
			notes = append(notes, fmt.Sprintf("%s is deprecated: read as %s (set that instead)", old, model.NetworkKey))
		}
	}
	algo := Default().Run.Algo
	if run, ok := raw["run"].(map[string]any); ok {
		if a, ok := run["algo"].(string); ok {
			algo = a
		}
	}
	out := make([]string, len(overrides))
	for i, o := range overrides {
		out[i] = o
		key, text, ok := strings.Cut(o, "=")
		key = strings.TrimSpace(key)
		if !ok {
			continue
		}
		if key == "run.algo" {
			algo = strings.TrimSpace(text)
			if s, err := strconv.Unquote(algo); err == nil {
				algo = s
			}
		}
		if section, name, ok := strings.Cut(key, "."); ok && name == networkKey && isLearner(section) {
			out[i] = model.NetworkKey + "=" + text
			note(key)
		}
	}
	for _, a := range Algorithms {
		sec, ok := raw[a.Name].(map[string]any)
		if !ok {
			continue
		}
		v, ok := sec[networkKey]
		if !ok {
			continue
		}
		delete(sec, networkKey)
		if a.Name != algo {
			continue
		}
		old := a.Name + "." + networkKey
		net, ok := raw["net"].(map[string]any)
		if !ok {
			net = map[string]any{}
			raw["net"] = net
		}
		if cur, ok := net[networkKey]; ok && cur != v {
			*errs = append(*errs, fmt.Errorf("%s = %#v and %s = %#v disagree: %s is deprecated, set %s only", old, v, model.NetworkKey, cur, old, model.NetworkKey))
			continue
		}
		net[networkKey] = v
		note(old)
	}
	return out, notes
}

// isLearner reports whether name is a learner's section.
func isLearner(name string) bool {
	for _, a := range Algorithms {
		if a.Name == name {
			return true
		}
	}
	return false
}
