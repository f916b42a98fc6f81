package dmc

import (
	"slices"
	"testing"
)

// TestScalarEntries: the entries the suite holds as one float (not an array) are
// marked scalar in the layout, with one value each, and no other entry is.
func TestScalarEntries(t *testing.T) {
	for id, want := range map[string][]string{
		"WalkerWalk-v1":       {"height"},
		"FishUpright-v1":      {"upright"},
		"HumanoidStand-v1":    {"head_height"},
		"HumanoidCMUStand-v1": {"head_height"},
		"FingerTurnEasy-v1":   {"dist_to_target"},
		"QuadrupedWalk-v1":    {"torso_upright"},
		"CheetahRun-v1":       nil,
		"PendulumSwingup-v1":  nil, // its velocity is an array of one
	} {
		_, spec := makeEnv(t, id, nil, 0)
		var got []string
		for _, f := range spec.ObsLayout {
			if f.Scalar {
				got = append(got, f.Name)
				if f.Size != 1 {
					t.Errorf("%s: scalar entry %s has %d values", id, f.Name, f.Size)
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: scalar entries %v, want %v", id, got, want)
		}
	}
}
