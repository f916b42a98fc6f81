package atari

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs/atari/vcs"
)

// EnvConfig is the preprocessing of one Atari task, EnvPool's Atari options with their
// defaults (DefaultEnvConfig). See docs/design/atari.md and EnvPool's envpool/atari.
// The toml tags are the options' names in a family option table (ParseEnvConfig).
type EnvConfig struct {
	// ImgHeight and ImgWidth are the observation's size (84 x 84). The screen's top
	// 210 rows (EnvPool reads a 210 x 160 frame whatever the game's screen height)
	// are resized to it.
	ImgHeight int `toml:"img_height" range:"[1,4096]" help:"observation height"`
	ImgWidth  int `toml:"img_width" range:"[1,4096]" help:"observation width"`
	// StackNum is the number of frames stacked in an observation, oldest first (4).
	StackNum int `toml:"stack_num" range:"[1,1024]" help:"frames stacked in an observation"`
	// GrayScale gives one channel per frame (ALE's grayscale palette); false gives
	// RGB, channel-first: [StackNum*3, H, W].
	GrayScale bool `toml:"gray_scale" help:"one grayscale channel per frame; false: RGB"`
	// FrameSkip is the number of emulator frames one step repeats its action (4); the
	// last two are max-pooled pixel by pixel.
	FrameSkip int `toml:"frame_skip" range:"[1,1000]" help:"emulator frames per step (the last two max-pooled)"`
	// NoopMax bounds the random number of NOOP frames after a reset (30): EnvPool
	// draws 1..NoopMax uniformly, one fewer when fire reset applies. 0 means none.
	NoopMax int `toml:"noop_max" range:"[0,inf)" help:"most random NOOP frames after a reset; 0: none"`
	// EpisodicLife ends an episode when a life is lost; the game is only reset once
	// it is over (or truncated).
	EpisodicLife bool `toml:"episodic_life" help:"end an episode when a life is lost"`
	// ZeroDiscountOnLifeLoss sets the "discount" info to 0 on the step a life is
	// lost (it changes nothing else, as in EnvPool's gym API).
	ZeroDiscountOnLifeLoss bool `toml:"zero_discount_on_life_loss" help:"discount info 0 on the step a life is lost"`
	// RewardClip makes the reward sign(reward); the "reward" info keeps the raw one.
	RewardClip bool `toml:"reward_clip" help:"reward sign(reward); the reward info keeps the raw one"`
	// RepeatActionProbability is ALE's sticky-action probability (0).
	RepeatActionProbability float64 `toml:"repeat_action_probability" range:"[0,1]" help:"sticky-action probability"`
	// UseInterAreaResize resizes with OpenCV's INTER_AREA (true), else INTER_LINEAR.
	UseInterAreaResize bool `toml:"use_inter_area_resize" help:"resize with INTER_AREA; false: INTER_LINEAR"`
	// UseFireReset presses FIRE once after the noops of a reset, if the game's
	// action set has FIRE (true).
	UseFireReset bool `toml:"use_fire_reset" help:"press FIRE once after a reset when the game has it"`
	// FullActionSpace offers ALE's 18 actions instead of the game's minimal set.
	FullActionSpace bool `toml:"full_action_space" help:"ALE's 18 actions instead of the game's minimal set"`
	// MaxEpisodeSteps truncates an episode after this many steps (27000 = 108000
	// frames). With EpisodicLife the count runs over the lives of one game, as in
	// EnvPool.
	MaxEpisodeSteps int `toml:"max_episode_steps" range:"[1,inf)" help:"truncate an episode after this many steps"`
	// Mode is the game mode (nil: the game's default); Difficulty ALE's difficulty
	// (nil: ALE's default, 0, used unchecked as ALE does).
	Mode       *int
	Difficulty *int
}

// DefaultEnvConfig returns EnvPool's Atari defaults.
func DefaultEnvConfig() EnvConfig {
	return EnvConfig{
		ImgHeight: 84, ImgWidth: 84, StackNum: 4, GrayScale: true, FrameSkip: 4, NoopMax: 30,
		UseInterAreaResize: true, UseFireReset: true, MaxEpisodeSteps: 27000,
	}
}

// rawHeight is the frame height EnvPool preprocesses (its kRawHeight): the first 210
// rows of ALE's screen.
const rawHeight = 210

// InfoKeys are the info columns of the Atari tasks, in order: lives (ALE's count after
// the step), reward (the raw, unclipped reward), terminated (1 when the game is over),
// elapsed_step (steps of the current game: with episodic_life it runs over the lives
// of one game, as EnvPool reports it), discount (0 at a terminal step or, with
// zero_discount_on_life_loss, at a life loss; 1 otherwise), error (1 when the
// emulator failed, for example on a JAM opcode; the episode is then truncated) and ram
// (the console's 128 bytes of RAM after the step, EnvPool's info["ram"], which tools
// read scores and positions from).
var InfoKeys = []string{"lives", "reward", "terminated", "elapsed_step", "discount", "error", "ram"}

// InfoLens are the columns of each of InfoKeys: one per scalar, 128 for ram.
var InfoLens = []int{1, 1, 1, 1, 1, 1, ramBytes}

// ramBytes is the size of the console's RAM (the RIOT's 128 bytes).
const ramBytes = 128

// Env is one Atari task env: an ALE with EnvPool's preprocessing. It implements
// envpool.Env. Its randomness (noop starts, sticky actions) comes from its seed.
type Env struct {
	cfg       EnvConfig
	ale       *ALE
	con       *vcs.Console // nil only under test fakes
	actions   []Action
	fireReset bool
	noopRNG   vcs.Random // EnvPool's noop-start generator: an MT19937 of its own, seeded with the env's seed

	elapsed   int  // steps of the current game (EnvPool's elapsed_step_)
	lives     int  // lives after the last step
	failed    bool // the emulator returned an error this episode
	rawReward float32
	discount  float32

	// Preprocessing. planes is 1 (gray) or 3 (RGB); pooled holds the max-pooled raw
	// frame, planar (planes x 210 x 160); resizers resize one plane each.
	planes   int
	frameLen int // one stacked frame: planes x H x W
	pooled   []uint8
	// rawA and rawB hold the raw last two frames of the previous step (rawA also the
	// current step's second-last frame once captured); rowA flags the rows of rawA
	// that changed; pairValid says pooled is the max of rawA and rawB.
	rawA, rawB []uint8
	rowA       []bool
	pairValid  bool
	rowPooled  []bool // rows of pooled the last capture rewrote (nil after a full one)
	allRows    bool   // the last capture rewrote every row
	pad        []uint8
	resizers   []*resizer
	lut        [3][256]uint8 // screen byte -> gray, or -> R, G, B
	stack      []uint8       // StackNum frames, a ring; newest at stack[head]
	head       int

	// renderAll keeps the console drawing every frame; it is set once the console
	// reports an observed screen it could not make exact (see observedComplete).
	renderAll bool
}

// NewEnv builds an env for a ROM (it must be one of the supported games) with the
// given preprocessing and seed.
func NewEnv(rom []byte, cfg EnvConfig, seed int64) (*Env, error) {
	g, ok := Identify(rom)
	if !ok {
		return nil, unknownROMError("", rom)
	}
	if err := cfg.check(g); err != nil {
		return nil, err
	}
	ale, err := NewALE(rom, Options{Mode: cfg.Mode, Difficulty: cfg.Difficulty,
		RepeatActionProbability: cfg.RepeatActionProbability, Seed: uint32(seed)})
	if err != nil {
		return nil, err
	}
	e := &Env{cfg: cfg, ale: ale, con: ale.Console()}
	e.actions = g.MinimalActions
	if cfg.FullActionSpace {
		e.actions = allActions
	}
	if cfg.UseFireReset {
		for _, a := range e.actions {
			e.fireReset = e.fireReset || a == Fire
		}
	}
	e.noopRNG.Seed(uint32(seed))
	e.elapsed = cfg.MaxEpisodeSteps + 1 // the first Reset resets the game, as EnvPool's does
	e.planes = 3
	if cfg.GrayScale {
		e.planes = 1
		for i := range 256 {
			e.lut[0][i] = vcs.NTSCGray[i>>1]
		}
	} else {
		for i := range 256 {
			c := vcs.NTSCPalette[i>>1]
			e.lut[0][i], e.lut[1][i], e.lut[2][i] = c[0], c[1], c[2]
		}
	}
	e.frameLen = e.planes * cfg.ImgHeight * cfg.ImgWidth
	e.pooled = make([]uint8, e.planes*rawHeight*ScreenWidth)
	e.rawA = make([]uint8, rawHeight*ScreenWidth)
	e.rawB = make([]uint8, rawHeight*ScreenWidth)
	e.rowA = make([]bool, rawHeight)
	e.rowPooled = make([]bool, rawHeight)
	for range e.planes {
		e.resizers = append(e.resizers, newResizer(ScreenWidth, rawHeight, cfg.ImgWidth, cfg.ImgHeight, cfg.UseInterAreaResize))
	}
	e.stack = make([]uint8, cfg.StackNum*e.frameLen)
	return e, nil
}

// check validates a configuration for a game.
func (c EnvConfig) check(g Game) error {
	switch {
	case c.ImgHeight < 1 || c.ImgWidth < 1 || c.ImgHeight > 4096 || c.ImgWidth > 4096:
		return fmt.Errorf("atari: img_height x img_width = %d x %d: each must be 1..4096 (EnvPool's default is 84 x 84)", c.ImgHeight, c.ImgWidth)
	case c.StackNum < 1:
		return fmt.Errorf("atari: stack_num = %d: must be at least 1", c.StackNum)
	case c.FrameSkip < 1:
		return fmt.Errorf("atari: frame_skip = %d: must be at least 1", c.FrameSkip)
	case c.NoopMax < 0:
		return fmt.Errorf("atari: noop_max = %d: must be at least 0", c.NoopMax)
	case c.MaxEpisodeSteps < 1:
		return fmt.Errorf("atari: max_episode_steps = %d: must be at least 1", c.MaxEpisodeSteps)
	}
	return checkOptions(g, Options{Mode: c.Mode, Difficulty: c.Difficulty, RepeatActionProbability: c.RepeatActionProbability})
}

// Spec returns the task's spec for a game under this configuration.
func (c EnvConfig) Spec(taskID string, g Game) envpool.Spec {
	n := len(g.MinimalActions)
	if c.FullActionSpace {
		n = NumActions
	}
	ch := c.StackNum
	if !c.GrayScale {
		ch *= 3
	}
	return envpool.Spec{
		TaskID:          taskID,
		ObsSpace:        envpool.UniformBox(0, 255, envpool.Uint8, ch, c.ImgHeight, c.ImgWidth),
		ActionSpace:     envpool.DiscreteSpace(n),
		MaxEpisodeSteps: c.MaxEpisodeSteps,
		FrameSkip:       c.FrameSkip,
		InfoKeys:        append([]string(nil), InfoKeys...),
		InfoLens:        append([]int(nil), InfoLens...),
		RewardThreshold: math.NaN(),
		RenderFPS:       FrameRate / float64(c.FrameSkip), // one picture per env step
		RenderWidth:     160, RenderHeight: 210,           // the console's own pixels (Render draws them two wide)
	}
}

// ALE returns the env's emulator, for inspection.
func (e *Env) ALE() *ALE { return e.ale }

// ActionSet returns the ALE actions the env's action indices stand for.
func (e *Env) ActionSet() []Action { return append([]Action(nil), e.actions...) }

// setRender turns the console's pixel output on or off (a no-op under test fakes or
// once renderAll is set).
func (e *Env) setRender(on bool) {
	if e.con != nil {
		e.con.SetRenderEnabled(on || e.renderAll)
	}
}

// act plays one frame of ALE action a. An emulator error ends the episode: it is
// recorded and reported as a truncation with the "error" info set.
func (e *Env) act(a Action) int {
	if e.failed {
		return 0
	}
	r, err := e.ale.Act(int(a))
	if err != nil {
		e.failed = true
		return 0
	}
	return r
}

// gameOver reports whether the episode cannot continue: the game is over or the
// emulator failed.
func (e *Env) gameOver() bool { return e.failed || e.ale.GameOver() }

// resetGame is ALE's reset_game; a failure is recorded like act's.
func (e *Env) resetGame() {
	e.failed = false
	if err := e.ale.ResetGame(); err != nil {
		e.failed = true
	}
}

// noops draws EnvPool's number of reset NOOPs: uniform in [0, NoopMax-1] (as
// libstdc++'s uniform_int_distribution draws from mt19937), plus one, minus one when
// fire reset applies.
func (e *Env) noops() int {
	if e.cfg.NoopMax <= 0 {
		return 0
	}
	n := int(uniformBelow(&e.noopRNG, uint32(e.cfg.NoopMax))) + 1
	if e.fireReset {
		n--
	}
	return n
}

// uniformBelow returns a uniform integer in [0, n) from a 32-bit generator with
// Lemire's multiply-and-reject method, the way libstdc++ (GCC 11 and later) maps
// mt19937 output into a small range.
func uniformBelow(g *vcs.Random, n uint32) uint32 {
	p := uint64(g.Next()) * uint64(n)
	if low := uint32(p); low < n {
		threshold := -n % n
		for low < threshold {
			p = uint64(g.Next()) * uint64(n)
			low = uint32(p)
		}
	}
	return uint32(p >> 32)
}

// Reset starts an episode as EnvPool's auto-reset does: a real game reset unless
// episodic life continues a game that is not over; then the random NOOPs (a game that
// ends during them is reset again) and FIRE if fire reset applies. The last frame is
// the first observation; after a real reset it fills every stack slot. Only that frame
// is drawn.
func (e *Env) Reset() { e.reset(false) }

// NewGame starts an episode in a new game, as EnvPool's explicit reset does: Reset
// with a real game reset even when episodic life would continue the game
// (envpool.NewGamer).
func (e *Env) NewGame() { e.reset(true) }

// reset is Reset, with a real game reset whatever the game's state when newGame is set.
func (e *Env) reset(newGame bool) {
	noop := e.noops()
	pushAll := false
	last := noop == 0 && !e.fireReset // the reset's own last frame is observed
	if newGame || !e.cfg.EpisodicLife || e.gameOver() || e.elapsed >= e.cfg.MaxEpisodeSteps {
		e.setRender(last)
		e.resetGame()
		e.elapsed = 0
		pushAll = true
	}
	for i := noop; i > 0; i-- {
		e.setRender(i == 1 && !e.fireReset)
		e.act(Noop)
		if e.gameOver() {
			e.setRender(i == 1 && !e.fireReset)
			e.resetGame()
			pushAll = true
		}
	}
	if e.fireReset {
		e.setRender(true)
		e.act(Fire)
	}
	e.setRender(true)
	if !e.observedComplete() {
		// Rows this frame left undrawn hold what undrawn earlier frames left there,
		// which the console could not redraw; this observation cannot be redone, but
		// from now on every frame is drawn, so later ones are exact.
		e.renderAll = true
	}
	e.captureSingle()
	e.push(pushAll)
	e.lives = e.ale.Lives()
	e.rawReward, e.discount = 0, 1
}

// Step plays one action for FrameSkip frames (fewer if the game ends) and pushes the
// new observation: the max of the last two frames' pixels if every frame ran; the
// second-last frame alone if the game ended on it; the previous observation again if
// it ended earlier (EnvPool's max-pool buffers behave so). Frames before the last two
// are emulated without drawing pixels, which changes no result.
func (e *Env) Step(action []float32) envpool.StepResult {
	if len(action) != 1 || action[0] < 0 || int(action[0]) >= len(e.actions) {
		// Not an action of this task (the pool rejects such actions before they get
		// here): end the episode as an env failure rather than guess.
		e.failed = true
		e.rawReward, e.discount = 0, 0
		return envpool.StepResult{Truncated: true}
	}
	a := e.actions[int(action[0])]
	reward := 0
	done := false
	skip := e.cfg.FrameSkip
	for ; skip > 0 && !done; skip-- {
		e.setRender(skip <= 2)
		reward += e.act(a)
		done = e.gameOver()
		switch {
		case skip == 2:
			e.captureFirst()
		case skip == 1 && e.cfg.FrameSkip >= 2:
			e.captureSecond()
		case skip == 1:
			e.captureSingle()
		}
		if skip <= 2 && !e.observedComplete() {
			e.renderAll = true
		}
	}
	switch {
	case skip == 0:
		e.push(false)
	case skip == 1 && e.cfg.FrameSkip >= 2:
		e.firstOnly()
		e.push(false)
	default:
		e.repeatNewest()
	}
	e.elapsed++
	truncated := e.elapsed >= e.cfg.MaxEpisodeSteps
	done = done || truncated
	lives := e.ale.Lives()
	if e.cfg.EpisodicLife && 0 < lives && lives < e.lives {
		done = true
	}
	if e.cfg.ZeroDiscountOnLifeLoss {
		e.discount = b2f(e.lives == lives && !done)
	} else {
		e.discount = 1 - b2f(done)
	}
	e.rawReward = float32(reward)
	r := float32(reward)
	if e.cfg.RewardClip {
		r = float32(sign(reward))
	}
	e.lives = lives
	if e.failed {
		return envpool.StepResult{Reward: r, Truncated: true}
	}
	trunc := done && truncated
	return envpool.StepResult{Reward: r, Terminated: done && !trunc, Truncated: trunc}
}

// Observe writes the frame stack, oldest first, and the info columns (InfoKeys).
func (e *Env) Observe(obs envpool.Obs, info []float32) {
	n := e.cfg.StackNum
	for i := range n {
		slot := (e.head + 1 + i) % n
		copy(obs.U8[i*e.frameLen:(i+1)*e.frameLen], e.stack[slot*e.frameLen:(slot+1)*e.frameLen])
	}
	const scalars = 6 // the columns before ram
	if len(info) >= scalars {
		info[0] = float32(e.lives)
		info[1] = e.rawReward
		info[2] = b2f(e.ale.GameOver())
		info[3] = float32(e.elapsed)
		info[4] = e.discount
		info[5] = b2f(e.failed)
	}
	if len(info) >= scalars+ramBytes {
		for i, v := range e.ale.RAM() {
			info[scalars+i] = float32(v)
		}
	}
}

// observedComplete reports whether the screen of the frame just emulated is ALE's.
// Pixels a frame does not draw keep what its buffer held two frames before; the
// console redraws skipped frames underneath when that matters, and reports the rare
// case it cannot (vcs.Console.ScreenExact).
func (e *Env) observedComplete() bool {
	return e.con == nil || e.renderAll || e.con.ScreenExact()
}

// screen returns the first 210 rows of the current screen (padded with black in the
// unlikely case of a shorter screen; no ALE game has one).
func (e *Env) screen() []uint8 {
	scr := e.ale.Screen()
	n := rawHeight * ScreenWidth
	if len(scr) >= n {
		return scr[:n]
	}
	if e.pad == nil {
		e.pad = make([]uint8, n)
	}
	clear(e.pad)
	copy(e.pad, scr)
	return e.pad
}

// captureSingle makes pooled the current screen's gray or RGB planes: the
// observation of a reset, of frame_skip 1, and of a step whose game ended on its
// second-last frame.
func (e *Env) captureSingle() {
	e.poolFrom(e.screen())
	e.pairValid, e.allRows = false, true
}

// captureFirst records the second-last frame of a step. Its rows are kept raw (the
// console overwrites its screen) and compared with the previous step's, so that
// captureSecond recomputes only the pooled rows that can have changed.
func (e *Env) captureFirst() {
	scr := e.screen()
	for y := range rawHeight {
		row := scr[y*ScreenWidth : (y+1)*ScreenWidth]
		prev := e.rawA[y*ScreenWidth : (y+1)*ScreenWidth]
		if e.pairValid && string(row) == string(prev) {
			e.rowA[y] = false
			continue
		}
		e.rowA[y] = true
		copy(prev, row)
	}
}

// captureSecond max-pools the last frame with the one captureFirst recorded: pooled is
// the per-pixel maximum of the two frames' gray (or R, G, B) values, the max taken
// after the color conversion as EnvPool takes it. Rows where neither frame changed
// since the previous step keep their pooled values.
func (e *Env) captureSecond() {
	scr := e.screen()
	plane := rawHeight * ScreenWidth
	for y := range rawHeight {
		row := scr[y*ScreenWidth : (y+1)*ScreenWidth]
		prevB := e.rawB[y*ScreenWidth : (y+1)*ScreenWidth]
		changedB := !e.pairValid || string(row) != string(prevB)
		if changedB {
			copy(prevB, row)
		}
		e.rowPooled[y] = changedB || e.rowA[y]
		if !e.rowPooled[y] {
			continue
		}
		a := e.rawA[y*ScreenWidth : (y+1)*ScreenWidth]
		for p := range e.planes {
			poolRow(e.pooled[p*plane+y*ScreenWidth:][:len(row)], a, row, &e.lut[p])
		}
	}
	e.pairValid, e.allRows = true, false
}

// poolRow writes dst[i] = max(lut[a[i]], lut[b[i]]). Eight-pixel groups where both
// frames agree take one lookup per pixel, and where both are also one colour
// (background and playfield blocks: most of a row) one lookup for the group.
func poolRow(dst, a, b []uint8, lut *[256]uint8) {
	n := len(b)
	a, dst = a[:n], dst[:n]
	i := 0
	for ; i+8 <= n; i += 8 {
		wa := binary.LittleEndian.Uint64(a[i:])
		wb := binary.LittleEndian.Uint64(b[i:])
		if wa == wb {
			if c := uint8(wb); wb == uint64(c)*0x0101010101010101 {
				binary.LittleEndian.PutUint64(dst[i:], uint64(lut[c])*0x0101010101010101)
				continue
			}
			for j, v := range b[i : i+8] {
				dst[i+j] = lut[v]
			}
			continue
		}
		for j := i; j < i+8; j++ {
			dst[j] = max(lut[a[j]], lut[b[j]])
		}
	}
	for ; i < n; i++ {
		dst[i] = max(lut[a[i]], lut[b[i]])
	}
}

// firstOnly makes pooled the frame captureFirst recorded (the game ended on it).
func (e *Env) firstOnly() {
	e.poolFrom(e.rawA)
	e.pairValid, e.allRows = false, true
}

// poolFrom converts a raw frame into pooled.
func (e *Env) poolFrom(scr []uint8) {
	plane := rawHeight * ScreenWidth
	for p := range e.planes {
		lut := &e.lut[p]
		dst := e.pooled[p*plane : (p+1)*plane]
		for i, v := range scr[:plane] {
			dst[i] = lut[v]
		}
	}
}

// push resizes the pooled frame into the next stack slot; with all set it copies it
// into every slot (the first frame of a game).
func (e *Env) push(all bool) {
	n := e.cfg.StackNum
	e.head = (e.head + 1) % n
	frame := e.stack[e.head*e.frameLen : (e.head+1)*e.frameLen]
	hw := e.cfg.ImgHeight * e.cfg.ImgWidth
	changed := e.rowPooled
	if e.allRows {
		changed = nil
	}
	for p, r := range e.resizers {
		r.resizeRows(e.pooled[p*rawHeight*ScreenWidth:(p+1)*rawHeight*ScreenWidth], frame[p*hw:(p+1)*hw], changed)
	}
	if all {
		for i := range n {
			if i != e.head {
				copy(e.stack[i*e.frameLen:(i+1)*e.frameLen], frame)
			}
		}
	}
}

// repeatNewest pushes the newest frame again (the observation of a step whose game
// ended before its last two frames).
func (e *Env) repeatNewest() {
	n := e.cfg.StackNum
	newest := e.stack[e.head*e.frameLen : (e.head+1)*e.frameLen]
	e.head = (e.head + 1) % n
	copy(e.stack[e.head*e.frameLen:(e.head+1)*e.frameLen], newest)
}

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
