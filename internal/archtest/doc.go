// Package archtest holds no code, only a test of the project's layering: its
// dependencies point down. The engine (envpool), the environment families (envs/...)
// and the learners (agent/...) never import the application (internal/...) or the
// command (cmd/...); the engine and the settings decoder (option) import nothing of the project; and a learner knows
// an environment only through envpool, never through a family under envs/.
//
// The test reads the import graph from `go list -deps`, so it sees every package the
// go command builds for those packages, transitive imports included, and it names the
// chain of imports that breaks a rule.
package archtest
