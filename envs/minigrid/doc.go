// Package minigrid holds the MiniGrid and BabyAI tasks of EnvPool 1.2.4
// (envpool/minigrid) with the rules of Farama's minigrid 3.0: a grid world of walls, doors, keys, balls,
// boxes, goals and lava that an agent sees a 7 x 7 square of in front of it and acts
// in with seven actions (turn left, turn right, forward, pick up, drop, toggle, done).
//
// An observation is EnvPool's dict {direction, image, mission} flattened in that
// order into one uint8 row, the spec's ObsLayout naming the parts: the direction
// (0 east, 1 south, 2 west, 3 north), the view encoded as minigrid's (object, colour,
// state) indices, and the mission text as bytes. The info columns are the agent's
// position and EnvPool's mission_id.
//
// A task's level (the layout its minigrid class generates and the rules of its step)
// is a small type of its own; the grid, the view, the actions and the state live in
// Env, which every task shares. BabyAI's levels are levels too: a room grid laid out
// with distractors and an instruction of the baby language, whose verifier judges
// every step (babyai.go, babyai_gen.go, babyai_levels.go). Layouts are drawn from a PCG generator seeded at
// construction, so they follow minigrid's distributions but not numpy's draws;
// docs/design/minigrid.md says what follows minigrid exactly and what differs.
package minigrid
