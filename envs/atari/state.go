package atari

import (
	"fmt"
	"math"

	"github.com/rlpool/rlpool/envs/atari/internal/binstate"
	"github.com/rlpool/rlpool/envs/atari/vcs"
)

// EnvStateFormat is the format version of an Env's saved state, its first byte. A
// change to what the state holds or its order gets a new version; UnmarshalBinary
// refuses versions it does not know.
const EnvStateFormat = 1

// savedReader is a reader whose bookkeeping can be saved: stateFields lists pointers
// to every int and bool field of it, in a fixed order.
type savedReader interface {
	stateFields() (ints []*int, bools []*bool)
}

// stateFields lists the fields every reader has.
func (r *scoreReader) stateFields() ([]*int, []*bool) {
	return []*int{&r.reward, &r.score, &r.lives}, []*bool{&r.terminal}
}

// with lists the common fields followed by a reader's own.
func (r *scoreReader) with(ints []*int, bools ...*bool) ([]*int, []*bool) {
	i, b := r.stateFields()
	return append(i, ints...), append(b, bools...)
}

// The readers that keep more than the common fields list them too.

func (r *breakoutReader) stateFields() ([]*int, []*bool)       { return r.with(nil, &r.started) }
func (r *chopperCommandReader) stateFields() ([]*int, []*bool) { return r.with(nil, &r.started) }
func (r *darkchambersReader) stateFields() ([]*int, []*bool)   { return r.with([]*int{&r.level}) }
func (r *demonAttackReader) stateFields() ([]*int, []*bool)    { return r.with(nil, &r.levelChange) }
func (r *hauntedHouseReader) stateFields() ([]*int, []*bool)   { return r.with([]*int{&r.matches}) }
func (r *othelloReader) stateFields() ([]*int, []*bool)        { return r.with([]*int{&r.noInput}) }
func (r *qbertReader) stateFields() ([]*int, []*bool)          { return r.with([]*int{&r.lastLives}) }
func (r *riverraidReader) stateFields() ([]*int, []*bool)      { return r.with([]*int{&r.livesByte}) }
func (r *starGunnerReader) stateFields() ([]*int, []*bool)     { return r.with(nil, &r.started) }
func (r *tetrisReader) stateFields() ([]*int, []*bool)         { return r.with(nil, &r.started) }
func (r *videoCheckersReader) stateFields() ([]*int, []*bool)  { return r.with(nil, &r.reverse) }

func (r *hangmanReader) stateFields() ([]*int, []*bool) {
	return r.with([]*int{&r.player, &r.computer, &r.timer[0], &r.timer[1]})
}

func (r *miniatureGolfReader) stateFields() ([]*int, []*bool) {
	return r.with([]*int{&r.hole, &r.par, &r.hits, &r.left, &r.hitsAtHoleStart})
}

func (r *tennisReader) stateFields() ([]*int, []*bool) {
	return r.with([]*int{&r.prevGames, &r.prevPoints})
}

func (r *videoCubeReader) stateFields() ([]*int, []*bool) {
	return r.with([]*int{&r.faces, &r.timer[0], &r.timer[1]})
}

// envState is an Env's saved state, staged: MarshalBinary fills it from the env and
// encodes it; UnmarshalBinary decodes into one and applies it only once all of it is
// valid.
type envState struct {
	md5     []byte
	shape   [6]int // see Env.shape
	machine []byte // vcs.State's encoding

	// The ALE.
	input          []byte // vcs.Input's encoding
	paddles        [2]int32
	rng            []byte // vcs.Random's encoding
	heldA, heldB   uint8
	frame, epFrame int
	readerInts     []int
	readerBools    []bool

	// The preprocessing.
	noopRNG             []byte
	elapsed, lives      int
	failed, renderAll   bool
	rawReward, discount float32
	head                int
	stack               []uint8
}

// shapeNames names the values of Env.shape in errors.
var shapeNames = [6]string{"mode", "difficulty", "stack_num", "colour planes", "img_height", "img_width"}

// shape lists what an env's state must agree on with the env it is restored into,
// besides the game: the mode, the difficulty and the frame stack's geometry.
func (e *Env) shape() [6]int {
	return [6]int{e.ale.mode, e.ale.difficulty, e.cfg.StackNum, e.planes, e.cfg.ImgHeight, e.cfg.ImgWidth}
}

// fields walks the state's encoding for c. When reading, s must hold the restoring
// env's own md5, shape, reader field counts and stack size, which the state must match.
func (s *envState) fields(c *binstate.Codec) error {
	v := uint8(EnvStateFormat)
	if c.U8(&v); v != EnvStateFormat && c.Err() == nil {
		return fmt.Errorf("%s has format version %d; this build reads version %d", c.What(), v, EnvStateFormat)
	}
	md5 := s.md5
	if c.Blob(&md5); string(md5) != string(s.md5) && c.Err() == nil {
		name := "an unknown ROM"
		if g, ok := gamesByMD5[string(md5)]; ok {
			name = g.Name
		}
		return fmt.Errorf("%s was saved from %s (md5 %s); restore it into an env of the same game", c.What(), name, md5)
	}
	for i := range s.shape {
		v := s.shape[i]
		if c.Int(&v); v != s.shape[i] && c.Err() == nil {
			return fmt.Errorf("%s was saved with %s %d, this env has %d; restore it into an env of the same configuration", c.What(), shapeNames[i], v, s.shape[i])
		}
	}
	c.Blob(&s.machine)

	c.Blob(&s.input)
	c.I32(&s.paddles[0])
	c.I32(&s.paddles[1])
	c.Blob(&s.rng)
	c.U8(&s.heldA)
	c.U8(&s.heldB)
	c.Check(s.heldA < NumActions && s.heldB < NumActions, "held actions %d and %d are not ALE actions", s.heldA, s.heldB)
	c.IntIn("frame count", &s.frame, 0, math.MaxInt)
	c.IntIn("episode frame count", &s.epFrame, 0, math.MaxInt)
	n := len(s.readerInts)
	c.Int(&n)
	c.Check(n == len(s.readerInts), "the game reader saved %d numbers, this build's has %d", n, len(s.readerInts))
	for i := range s.readerInts {
		c.Int(&s.readerInts[i])
	}
	n = len(s.readerBools)
	c.Int(&n)
	c.Check(n == len(s.readerBools), "the game reader saved %d flags, this build's has %d", n, len(s.readerBools))
	for i := range s.readerBools {
		c.Bool(&s.readerBools[i])
	}

	c.Blob(&s.noopRNG)
	c.IntIn("elapsed steps", &s.elapsed, 0, math.MaxInt)
	c.Int(&s.lives)
	c.Bool(&s.failed)
	c.F32(&s.rawReward)
	c.F32(&s.discount)
	c.Bool(&s.renderAll)
	c.IntIn("frame stack head", &s.head, 0, s.shape[2]-1)
	c.Bytes(s.stack)
	return nil
}

// MarshalBinary saves everything that decides the env's future observations, rewards,
// infos and terminations, so that an env restored from it (UnmarshalBinary, on an env
// built for the same game and configuration with any seed) continues exactly as this
// one would: the whole machine (vcs.State), ALE's environment generator, held sticky
// actions, inputs, paddles, frame counters and game reader, and the env's noop-start
// generator, step count, lives, last reward and discount, error flag and frame stack.
// The format is described in docs/design/atari.md (version EnvStateFormat).
func (e *Env) MarshalBinary() ([]byte, error) {
	a := e.ale
	sr, ok := a.reader.(savedReader)
	if e.con == nil || !ok {
		return nil, fmt.Errorf("atari: %s env cannot save its state: it does not run on the emulated console", a.game.Name)
	}
	var st vcs.State
	e.con.Save(&st)
	mach, err := st.MarshalBinary()
	if err != nil {
		return nil, err
	}
	s := envState{
		md5: []byte(a.game.MD5), shape: e.shape(), machine: mach,
		input: must(a.in.MarshalBinary()), paddles: a.paddles, rng: must(a.rng.MarshalBinary()),
		heldA: uint8(a.heldA), heldB: uint8(a.heldB), frame: a.frame, epFrame: a.episodeFrame,
		noopRNG: must(e.noopRNG.MarshalBinary()), elapsed: e.elapsed, lives: e.lives,
		failed: e.failed, renderAll: e.renderAll, rawReward: e.rawReward, discount: e.discount,
		head: e.head, stack: e.stack,
	}
	ints, bools := sr.stateFields()
	for _, p := range ints {
		s.readerInts = append(s.readerInts, *p)
	}
	for _, p := range bools {
		s.readerBools = append(s.readerBools, *p)
	}
	c := binstate.NewWriter(make([]byte, 0, len(mach)+len(e.stack)+8192))
	if err := s.fields(c); err != nil {
		return nil, err
	}
	c.Seal(0)
	return c.Data(), nil
}

// must returns the encoding of a value whose encoding cannot fail.
func must(b []byte, _ error) []byte { return b }

// UnmarshalBinary restores a state saved by MarshalBinary. The env must play the same
// game (ROM), mode and difficulty with the same frame stack geometry; its seed does
// not matter, the saved generators replace its own. A damaged or truncated state, an
// unknown format version or a state of another game or configuration is an error and
// leaves the env as it was.
func (e *Env) UnmarshalBinary(data []byte) error {
	a := e.ale
	what := fmt.Sprintf("atari: %s env state", a.game.Name)
	c, err := binstate.Open(data, what)
	if err != nil {
		return err
	}
	reader := a.game.NewReader()
	ints, bools := reader.(savedReader).stateFields()
	s := envState{md5: []byte(a.game.MD5), shape: e.shape(), readerInts: make([]int, len(ints)),
		readerBools: make([]bool, len(bools)), stack: make([]uint8, len(e.stack))}
	if err := s.fields(c); err != nil {
		return err
	}
	if err := c.Finish(); err != nil {
		return err
	}
	var (
		st           vcs.State
		in           vcs.Input
		rng, noopRNG vcs.Random
	)
	for _, u := range []struct {
		dst interface{ UnmarshalBinary([]byte) error }
		b   []byte
	}{{&st, s.machine}, {&in, s.input}, {&rng, s.rng}, {&noopRNG, s.noopRNG}} {
		if err := u.dst.UnmarshalBinary(u.b); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
	}
	if err := e.con.Restore(&st); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	for i, p := range ints {
		*p = s.readerInts[i]
	}
	for i, p := range bools {
		*p = s.readerBools[i]
	}
	a.in, a.paddles, a.rng, a.heldA, a.heldB = in, s.paddles, rng, Action(s.heldA), Action(s.heldB)
	a.frame, a.episodeFrame, a.reader = s.frame, s.epFrame, reader
	e.noopRNG, e.elapsed, e.lives, e.failed = noopRNG, s.elapsed, s.lives, s.failed
	e.rawReward, e.discount, e.renderAll, e.head = s.rawReward, s.discount, s.renderAll, s.head
	copy(e.stack, s.stack)
	// The caches of the last frames and their resized rows describe frames the
	// restored machine never showed: the next observation is computed from scratch.
	e.pairValid = false
	for _, r := range e.resizers {
		r.primed = false
	}
	return nil
}
