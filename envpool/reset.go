package envpool

// NewGamer is an optional interface of an Env whose Reset does not always start from
// scratch. With Atari's episodic life, for example, losing a life ends the episode, and
// the Reset after it carries on with the same game and its remaining lives, so that a
// learner sees one episode per life while the game runs to its end.
//
// The pool tells the two kinds of reset apart. It calls NewGame for every reset that a
// caller asks for (Reset, AsyncReset, SendReset), for the first step of an env that was
// never reset (a fresh env counts as done, so that step starts it), and for an env that
// panicked; it calls Reset only for the auto-reset after a step that ended an episode.
// An env that does not implement NewGamer gets Reset for both. A wrapper env (one that
// holds another Env) should implement NewGamer and pass the call on with StartNewGame,
// so that the env it wraps still tells the two apart.
type NewGamer interface {
	// NewGame starts a new episode in a new game, whatever state the current game is
	// in; like Reset, it is followed by Observe.
	NewGame()
}

// StartNewGame starts a new game on e: NewGame when e implements NewGamer, Reset
// otherwise.
func StartNewGame(e Env) {
	if g, ok := e.(NewGamer); ok {
		g.NewGame()
		return
	}
	e.Reset()
}

// resetKind is the reset an env is due before its next step.
type resetKind uint8

const (
	noReset   resetKind = iota
	autoReset           // the episode ended (next_step mode): Reset, which may continue the game
	newGame             // fresh, explicitly reset or recovering from a panic: StartNewGame
)
