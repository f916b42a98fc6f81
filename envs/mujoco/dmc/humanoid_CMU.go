package dmc

// The humanoid_CMU domain: the 56-joint humanoid of the CMU motion-capture data with
// a free root (the suite's humanoid_CMU.py). Control timestep 0.02 s over the default
// 0.002 s model step: frame skip 10. Its tasks share the humanoid domain's logic
// (humanoid.go) with the thorax in place of the torso.
//
// Reward: as the humanoid's, with standing = tolerance(the head's z, [1.4, inf],
// margin 0.35, gaussian, 0.1 at the margin), upright = tolerance(the thorax's xmat zy
// (its y axis points up), [0.9, inf], margin 1.9, linear, 0) and the centre-of-mass
// velocity from sensor thorax_subtreelinvel. HumanoidCMUStand-v1: small_control *
// standing * upright * dont_move; HumanoidCMUWalk-v1 (speed 1) and HumanoidCMURun-v1
// (speed 10): small_control * standing * upright * (5*move + 1) / 6. The suite's file
// defines the walk speed (_WALK_SPEED = 1) but registers only stand and run; EnvPool
// registers walk too, and the walk task is the file's HumanoidCMU task at that speed.
//
// Reset: the limited joints uniform in their ranges and the root's orientation a
// random unit quaternion, drawn again until a forward pass finds no contact. No
// termination.
//
// Observation: joint_angles (qpos without the root's 7 values, 56), head_height (1),
// extremities (lhand, lfoot, rhand, rfoot relative to the thorax in its frame, 12),
// torso_vertical (the thorax's xmat row z, 3), com_velocity (thorax_subtreelinvel, 3),
// velocity (qvel, 62).
func init() {
	body := humanoidBody{
		domain: "humanoid_CMU", torso: "thorax", uprightCol: 1, velocity: "thorax_subtreelinvel",
		extremities: []string{"lhand", "lfoot", "rhand", "rfoot"},
	}
	register(
		suiteTask("humanoid_CMU", "stand", 10, newHumanoid(body, 0, false)),
		suiteTask("humanoid_CMU", "walk", 10, newHumanoid(body, humanoidWalkSpeed, false)),
		suiteTask("humanoid_CMU", "run", 10, newHumanoid(body, humanoidRunSpeed, false)),
	)
}
