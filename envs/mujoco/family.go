package mujoco

// A check the MuJoCo families (Gymnasium's tasks, the control suite, the robotics
// tasks) share: that a simulation has not blown up. (Compiled models are cached by
// CachedModel, and per-env copies made by Model.CopyWithData, in frames.go.)

import "math"

// StateFinite reports whether qpos and qvel hold only finite values: a step that leaves
// a NaN or an infinity there has blown up, and the families end the episode.
func (d *Data) StateFinite() bool {
	for _, v := range [2][]float64{d.Qpos, d.Qvel} {
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return false
			}
		}
	}
	return true
}
