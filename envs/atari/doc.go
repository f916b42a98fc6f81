// Package atari is rlpool's ALE-compatible layer over the pure-Go Atari 2600 in
// package vcs: it finds ROMs by md5, knows each supported game's properties and RAM
// layout (score, lives, game over, minimal action set, mode selection, starting
// actions), and drives the console exactly as the Arcade Learning Environment
// (ALE 0.12.1) does, so that rewards, RAM and screens match ALE frame for frame.
//
// The reference behaviour is described in reference/ALE.md and
// reference/STELLA_CORE_NOTES.md (sections 1, 2 and 7); the frame-by-frame
// comparison with ALE is trace_test.go, run against the recorded ALE traces in
// $RLPOOL_TESTDATA/atari/traces with the ROMs in $RLPOOL_ROMS.
package atari
