package envpool

// TextRenderer is an env that can describe its current state as text for people to
// read: Gymnasium's "ansi" render mode. Grid worlds (the toy-text tasks' lakes, taxi
// yards and cliffs) are clearer as a few lines of characters than as a picture, and
// text goes where pictures cannot: a terminal, a log, a test's expected value. It is
// an optional capability beside Env and Renderer, found with a type assertion.
//
// RenderText returns the frame of the state after the last Reset or Step, lines ended
// by newlines; it may hold ANSI colour escapes, as Gymnasium's frames do, to mark the
// agent.
type TextRenderer interface {
	RenderText() (string, error)
}
