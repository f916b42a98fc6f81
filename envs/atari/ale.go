package atari

import (
	"fmt"
	"slices"

	"github.com/rlpool/rlpool/envs/atari/vcs"
)

// machine is the part of the console the ALE drives. The console implements it; tests
// substitute a scripted fake to check the exact frame and input sequences of resets
// and actions without emulating a game.
type machine interface {
	Memory
	Reset()
	SetInput(in vcs.Input)
	RunFrame() error
	Screen() []byte
}

// Options configure an ALE. The zero value is ALE's (and EnvPool's) default: the
// game's default mode and difficulty, no sticky actions.
type Options struct {
	// Mode selects a game mode; nil means the game's default (Game.DefaultMode).
	Mode *int
	// Difficulty selects ALE's difficulty: bit 0 sets the left difficulty switch to A,
	// bit 1 the right one. nil means ALE's default, 0, which ALE uses without checking
	// it against the game's difficulties (Backgammon lists only 3); a given difficulty
	// must be one of the game's, as ALE's setDifficulty requires.
	Difficulty *int
	// RepeatActionProbability is the sticky-action probability: on every frame the
	// previous action is kept with this probability (0 in EnvPool, 0.25 in
	// Gymnasium's v5 tasks). Must be in [0, 1].
	RepeatActionProbability float64
	// Seed seeds the environment RNG that sticky actions draw from (ALE's
	// random_seed; EnvPool passes each env's seed). The draws happen on every frame
	// whatever the probability, as in ALE.
	Seed uint32
}

// ALE is one game running on the 2600 emulator, driven exactly as ALE's
// StellaEnvironment drives Stella with frame_skip 1: Act emulates one frame with ALE's
// event mapping and asks the game's reader for the reward. Not safe for concurrent use.
type ALE struct {
	game   Game
	reader Reader
	m      machine
	con    *vcs.Console // the real console, nil under test fakes

	in         vcs.Input
	usePaddles bool
	paddles    [2]int32 // positions of player A's and player B's paddles

	mode, difficulty int
	repeatProb       float64
	// rng is ALE's environment RNG, an MT19937 seeded with Options.Seed: sticky
	// actions and adventure's mode selection draw from it.
	rng          vcs.Random
	heldA, heldB Action // the actions sticky actions repeat

	frame, episodeFrame int
}

// NewALE builds the console for a ROM and performs ALE's environment reset, so the game
// is ready for Act (the state ALE's loadROM leaves). The ROM must be one of the
// supported games (see Identify); an unknown md5 is an error, never run.
func NewALE(rom []byte, opts Options) (*ALE, error) {
	g, ok := Identify(rom)
	if !ok {
		return nil, unknownROMError("", rom)
	}
	if err := checkOptions(g, opts); err != nil {
		return nil, err
	}
	con, err := vcs.NewConsole(rom, g.Props.consoleConfig())
	if err != nil {
		return nil, fmt.Errorf("atari: %s: building the console: %w", g.Name, err)
	}
	a := newALE(g, con, opts)
	a.con = con
	if err := a.ResetGame(); err != nil {
		return nil, err
	}
	return a, nil
}

// checkOptions validates options against a game.
func checkOptions(g Game, opts Options) error {
	if opts.Mode != nil && !g.HasMode(*opts.Mode) {
		modes := g.Modes
		if len(modes) == 0 {
			modes = []int{0}
		}
		return fmt.Errorf("atari: %s has no mode %d; its modes are %v", g.Name, *opts.Mode, modes)
	}
	if opts.Difficulty != nil && !g.HasDifficulty(*opts.Difficulty) {
		diffs := g.Difficulties
		if len(diffs) == 0 {
			diffs = []int{0}
		}
		return fmt.Errorf("atari: %s has no difficulty %d; its difficulties are %v", g.Name, *opts.Difficulty, diffs)
	}
	if !(opts.RepeatActionProbability >= 0 && opts.RepeatActionProbability <= 1) {
		return fmt.Errorf("atari: repeat action probability %v is outside [0, 1]", opts.RepeatActionProbability)
	}
	return nil
}

// newALE wires an ALE around a machine without resetting it (ALE's StellaEnvironment
// constructor: paddles centred, environment RNG seeded, default or chosen mode).
func newALE(g Game, m machine, opts Options) *ALE {
	a := &ALE{
		game:       g,
		reader:     g.NewReader(),
		m:          m,
		usePaddles: g.Props.usesPaddles(),
		mode:       g.DefaultMode(),
		repeatProb: opts.RepeatActionProbability,
	}
	if opts.Mode != nil {
		a.mode = *opts.Mode
	}
	if opts.Difficulty != nil {
		a.difficulty = *opts.Difficulty
	}
	a.rng.Seed(opts.Seed)
	a.resetPaddles()
	return a
}

// resetPaddles centres both paddles and writes their resistances, as ALE's
// resetPaddles does at construction and at every reset.
func (a *ALE) resetPaddles() {
	a.paddles = [2]int32{PaddleDefault, PaddleDefault}
	if a.usePaddles {
		a.in.PaddleResistance[0] = PaddleDefault
		a.in.PaddleResistance[1] = PaddleDefault
	}
}

// ResetGame starts a new episode exactly as ALE's reset does: system reset, 60 NOOP
// frames, a soft reset (RESET held 4 frames), the reader's bookkeeping reset, the
// game's mode selection, another soft reset, then the game's starting actions. The
// reader sees each of these frames, as in ALE. They are not episode frames, except
// that each SELECT press of the mode selection advances the frame counters by one,
// as ALE's pressSelect does.
func (a *ALE) ResetGame() error {
	a.episodeFrame = 0
	a.resetPaddles()
	a.m.Reset()
	if err := a.emulate(Noop, Noop, 60); err != nil {
		return err
	}
	if err := a.softReset(); err != nil {
		return err
	}
	a.reader.Reset()
	if a.game.setMode != nil {
		if err := a.game.setMode(a, a.mode); err != nil {
			return err
		}
	}
	if err := a.softReset(); err != nil {
		return err
	}
	for _, act := range a.game.StartingActions {
		if err := a.emulate(act, Noop, 1); err != nil {
			return err
		}
	}
	return nil
}

// Act plays one frame with player A's action (an ALE action id, 0..17; player B does
// nothing) and returns the reward of that frame. With sticky actions the previous
// action may be repeated instead. Once the game is over no frame is emulated and the
// reward is 0 (call ResetGame). An error means the emulator failed (for example a JAM
// opcode) or the action is not an ALE action.
func (a *ALE) Act(action int) (int, error) {
	if action < 0 || action >= NumActions {
		return 0, fmt.Errorf("atari: action %d is not an ALE action id (0..%d); map agent actions through MinimalActionSet", action, NumActions-1)
	}
	// ALE draws twice per frame whatever the probability: once for player A, once
	// for player B, whose new action is always NOOP.
	if a.rng.NextDouble() >= a.repeatProb {
		a.heldA = Action(action)
	}
	if a.rng.NextDouble() >= a.repeatProb {
		a.heldB = Noop
	}
	if a.reader.Terminal() {
		return 0, nil
	}
	if err := a.emulate(a.heldA, a.heldB, 1); err != nil {
		return 0, err
	}
	a.frame++
	a.episodeFrame++
	return a.reader.Reward(), nil
}

// emulate runs n frames with the given actions (player B's in player-A numbering) and
// lets the reader see each: ALE's StellaEnvironment::emulate. Joystick events are set
// once; paddle games recompute the events every frame because the paddles move.
func (a *ALE) emulate(pa, pb Action, n int) error {
	if !a.usePaddles {
		applyJoysticks(&a.in, a.difficulty, pa, pb)
		a.m.SetInput(a.in)
	}
	for range n {
		if a.usePaddles {
			applyPaddles(&a.in, a.difficulty, &a.paddles, pa, pb)
			a.m.SetInput(a.in)
		}
		if err := a.m.RunFrame(); err != nil {
			return fmt.Errorf("atari: %s: frame %d: %w", a.game.Name, a.frame, err)
		}
		a.reader.Step(a.m)
	}
	return nil
}

// softReset holds the console RESET switch for 4 frames, then forgets the held
// (sticky) actions: ALE's softReset.
func (a *ALE) softReset() error {
	if err := a.emulate(actionReset, Noop, 4); err != nil {
		return err
	}
	a.heldA, a.heldB = Noop, Noop
	return nil
}

// pressSelect holds SELECT for `frames` frames that the reader does not see, then
// emulates one NOOP frame that it does; the frame counters advance by one. This is
// ALE's pressSelect, used by mode selection.
func (a *ALE) pressSelect(frames int) error {
	resetKeys(&a.in, a.difficulty)
	a.in.Select = true
	a.m.SetInput(a.in)
	for range frames {
		if err := a.m.RunFrame(); err != nil {
			return fmt.Errorf("atari: %s: frame %d (SELECT held): %w", a.game.Name, a.frame, err)
		}
	}
	if err := a.emulate(Noop, Noop, 1); err != nil {
		return err
	}
	a.frame++
	a.episodeFrame++
	return nil
}

// Game returns the game being played.
func (a *ALE) Game() Game { return a.game.clone() }

// Mode returns the game mode in use.
func (a *ALE) Mode() int { return a.mode }

// Lives returns the game's life count as ALE reports it (0 for games without lives).
func (a *ALE) Lives() int { return a.reader.Lives() }

// GameOver reports whether the episode has ended; Act emulates nothing until
// ResetGame.
func (a *ALE) GameOver() bool { return a.reader.Terminal() }

// MinimalActionSet returns the game's minimal action set in ALE's order; agent action
// i is MinimalActionSet()[i].
func (a *ALE) MinimalActionSet() []Action { return slices.Clone(a.game.MinimalActions) }

// Screen returns the last frame: 160 x Height bytes, row-major, each the TIA colour
// value ALE stores (even, 0..254; palette index = value >> 1). The slice belongs to the
// console and changes with the next frame; copy it to keep it.
func (a *ALE) Screen() []byte { return a.m.Screen() }

// ScreenHeight is the number of screen rows: 210 unless the game's properties say
// otherwise, or 250 when the console detects a PAL ROM and the height is the default
// (as Stella does; Klax is a PAL release).
func (a *ALE) ScreenHeight() int {
	if a.con != nil {
		return a.con.Height()
	}
	return a.game.Props.height()
}

// RAM returns the 128 bytes of RIOT RAM ($80-$FF) after the last frame. The array
// belongs to the console; copy it to keep it.
func (a *ALE) RAM() *[128]byte { return a.m.RAM() }

// Frame returns the number of frames Act (and mode-selection SELECT presses) have
// emulated since the ALE was built: ALE's frame number.
func (a *ALE) Frame() int { return a.frame }

// EpisodeFrame returns the frames of the current episode: ALE's episode frame number.
func (a *ALE) EpisodeFrame() int { return a.episodeFrame }

// Console returns the emulated console, for tools that inspect it (nil only in this
// package's tests).
func (a *ALE) Console() *vcs.Console { return a.con }
