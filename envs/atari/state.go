package atari

import (
	"fmt"

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
	enc := &binstate.Encoder{B: make([]byte, 0, len(mach)+len(e.stack)+8192)}
	enc.U8(EnvStateFormat)
	enc.Blob([]byte(a.game.MD5))
	for _, v := range e.shape() {
		enc.Int(v)
	}
	enc.Blob(mach)

	// The ALE.
	in, _ := a.in.MarshalBinary()
	enc.Blob(in)
	enc.I32(a.paddles[0])
	enc.I32(a.paddles[1])
	enc.Bytes(mustMarshal(&a.rng))
	enc.U8(uint8(a.heldA))
	enc.U8(uint8(a.heldB))
	enc.Int(a.frame)
	enc.Int(a.episodeFrame)
	ints, bools := sr.stateFields()
	enc.Int(len(ints))
	for _, v := range ints {
		enc.Int(*v)
	}
	enc.Int(len(bools))
	for _, v := range bools {
		enc.Bool(*v)
	}

	// The preprocessing.
	enc.Bytes(mustMarshal(&e.noopRNG))
	enc.Int(e.elapsed)
	enc.Int(e.lives)
	enc.Bool(e.failed)
	enc.F32(e.rawReward)
	enc.F32(e.discount)
	enc.Bool(e.renderAll)
	enc.Int(e.head)
	enc.Bytes(e.stack)
	enc.Seal(0)
	return enc.B, nil
}

// mustMarshal encodes a generator (which cannot fail).
func mustMarshal(r *vcs.Random) []byte {
	b, _ := r.MarshalBinary()
	return b
}

// shape lists what an env's state must agree on with the env it is restored into,
// besides the game: the mode, the difficulty and the frame stack's geometry.
func (e *Env) shape() []int {
	return []int{e.ale.mode, e.ale.difficulty, e.cfg.StackNum, e.planes, e.cfg.ImgHeight, e.cfg.ImgWidth}
}

// UnmarshalBinary restores a state saved by MarshalBinary. The env must play the same
// game (ROM), mode and difficulty with the same frame stack geometry; its seed does
// not matter, the saved generators replace its own. A damaged or truncated state, an
// unknown format version or a state of another game or configuration is an error and
// leaves the env as it was.
func (e *Env) UnmarshalBinary(data []byte) error {
	a := e.ale
	what := fmt.Sprintf("atari: %s env state", a.game.Name)
	d, err := binstate.Open(data, what)
	if err != nil {
		return err
	}
	if v := d.U8(); v != EnvStateFormat {
		return fmt.Errorf("%s has format version %d; this build reads version %d", what, v, EnvStateFormat)
	}
	if md5 := string(d.Blob()); d.Err() == nil && md5 != a.game.MD5 {
		name := "an unknown ROM"
		if g, ok := gamesByMD5[md5]; ok {
			name = g.Name
		}
		return fmt.Errorf("%s was saved from %s (md5 %s); restore it into an env of the same game", what, name, md5)
	}
	want := e.shape()
	for i, n := range []string{"mode", "difficulty", "stack_num", "colour planes", "img_height", "img_width"} {
		if v := d.Int(); d.Err() == nil && v != want[i] {
			return fmt.Errorf("%s was saved with %s %d, this env has %d; restore it into an env of the same configuration", what, n, v, want[i])
		}
	}
	var st vcs.State
	if err := st.UnmarshalBinary(d.Blob()); d.Err() == nil && err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}

	var in vcs.Input
	if err := in.UnmarshalBinary(d.Blob()); d.Err() == nil && err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	paddles := [2]int32{d.I32(), d.I32()}
	var rng, noopRNG vcs.Random
	decodeRandom(d, &rng)
	heldA := Action(d.U8())
	heldB := Action(d.U8())
	d.Check(heldA < NumActions && heldB < NumActions, "held actions %d and %d are not ALE actions", heldA, heldB)
	frame := d.IntIn("frame count", 0, 1<<62)
	episodeFrame := d.IntIn("episode frame count", 0, 1<<62)
	reader := a.game.NewReader()
	ints, bools := reader.(savedReader).stateFields()
	d.Check(d.Int() == len(ints), "the game reader's state does not match this build's")
	for _, v := range ints {
		*v = d.Int()
	}
	d.Check(d.Int() == len(bools), "the game reader's state does not match this build's")
	for _, v := range bools {
		*v = d.Bool()
	}

	decodeRandom(d, &noopRNG)
	elapsed := d.IntIn("elapsed steps", 0, 1<<62)
	lives := d.Int()
	failed := d.Bool()
	rawReward := d.F32()
	discount := d.F32()
	renderAll := d.Bool()
	head := d.IntIn("frame stack head", 0, e.cfg.StackNum-1)
	stack := make([]uint8, len(e.stack))
	d.Bytes(stack)
	if err := d.Finish(); err != nil {
		return err
	}
	if err := e.con.Restore(&st); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}

	a.in, a.paddles, a.rng, a.heldA, a.heldB = in, paddles, rng, heldA, heldB
	a.frame, a.episodeFrame, a.reader = frame, episodeFrame, reader
	e.noopRNG, e.elapsed, e.lives, e.failed = noopRNG, elapsed, lives, failed
	e.rawReward, e.discount, e.renderAll, e.head = rawReward, discount, renderAll, head
	copy(e.stack, stack)
	// The caches of the last frames and their resized rows describe frames the
	// restored machine never showed: the next observation is computed from scratch.
	e.pairValid = false
	for _, r := range e.resizers {
		r.primed = false
	}
	return nil
}

// decodeRandom reads a generator that mustMarshal wrote.
func decodeRandom(d *binstate.Decoder, r *vcs.Random) {
	b := make([]byte, len(mustMarshal(r)))
	d.Bytes(b)
	if err := r.UnmarshalBinary(b); d.Err() == nil && err != nil {
		d.Fail("%v", err)
	}
}
