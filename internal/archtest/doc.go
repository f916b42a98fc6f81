// Package archtest holds no code, only tests of the project's layering, as
// docs/design/architecture.md draws it: dependencies point down. The engine (envpool),
// the environment families (envs/...) and the learners (agent/...) never import the
// application (internal/...) or the command (cmd/...); the engine imports nothing of
// the project; a learner knows an environment only through envpool, never through a
// family under envs/; option (the one decoder of settings) and clib (the C-library
// loader that learners and families share) import nothing of the project. On the
// application side, play and render reach no family, the C library's own source
// imports none, and no program text outside envs/, configs/ and scripts/ names a task
// id: they use the registry and the capabilities every env declares through envpool.
//
// The layering test reads the import graph from `go list -deps`, so it sees every
// package the go command builds for those packages, transitive imports included, and
// it names the chain of imports that breaks a rule.
package archtest
