package atari

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/atari/vcs"
)

// testROM returns a game's ROM from $RLPOOL_ROMS, or skips.
func testROM(t testing.TB, game string) ROM {
	t.Helper()
	dir := os.Getenv(ROMEnv)
	if dir == "" {
		t.Skipf("set %s to a folder of ALE's ROMs", ROMEnv)
	}
	rom, err := FindROM(game, dir)
	if err != nil {
		t.Skipf("%s not in %s: %v", game, dir, err)
	}
	return rom
}

// testEnv builds an env of a game with the defaults changed by mutate.
func testEnv(t testing.TB, game string, seed int64, mutate func(*EnvConfig)) (*Env, envpool.Spec) {
	t.Helper()
	rom := testROM(t, game)
	cfg := DefaultEnvConfig()
	if mutate != nil {
		mutate(&cfg)
	}
	e, err := NewEnv(rom.Data, cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	return e, cfg.Spec("test", rom.Game)
}

// observe returns a fresh copy of the env's observation and info.
func observe(e *Env, spec envpool.Spec) ([]uint8, []float32) {
	obs := make([]uint8, spec.ObsSpace.Size())
	info := make([]float32, spec.InfoWidth())
	e.Observe(envpool.Obs{U8: obs}, info)
	return obs, info
}

// grayOf converts a screen to ALE's grayscale, the first 210 rows.
func grayOf(screen []byte) []uint8 {
	g := make([]uint8, rawHeight*ScreenWidth)
	for i := range g {
		g[i] = vcs.NTSCGray[screen[i]>>1]
	}
	return g
}

// TestMaxPoolAndFrameSkip runs an env beside a plain ALE driven with the same frames
// and checks every step's newest frame: with full-size frames it must be the per-pixel
// max of the last two frames' gray values, with 84x84 frames that max resized from
// scratch; the reward must be the sum over the skipped frames. The plain ALE draws
// every frame and the reference resize starts fresh each time, so this also checks
// that drawing only observed frames and reusing unchanged rows change nothing.
func TestMaxPoolAndFrameSkip(t *testing.T) {
	for _, game := range []string{"breakout", "space_invaders", "ms_pacman"} {
		for _, size := range [][2]int{{rawHeight, ScreenWidth}, {84, 84}} {
			t.Run(fmt.Sprintf("%s/%dx%d", game, size[0], size[1]), func(t *testing.T) {
				steps, allEndings := 150, false
				if game == "breakout" && size[0] == 84 {
					// Play games until they have ended on each of the first three
					// frames of a step (4000 steps at most).
					steps, allEndings = 4000, true
				}
				maxPoolCheck(t, game, size[0], size[1], steps, allEndings)
			})
		}
	}
}

func maxPoolCheck(t *testing.T, game string, h, w, steps int, allEndings bool) {
	e, spec := testEnv(t, game, 3, func(c *EnvConfig) {
		c.ImgHeight, c.ImgWidth, c.StackNum = h, w, 2
		c.NoopMax, c.UseFireReset = 1, false // exactly one NOOP after a reset
	})
	rom := testROM(t, game)
	ref, err := NewALE(rom.Data, Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	expect := func(pooled []uint8) []uint8 {
		out := make([]uint8, h*w)
		newResizer(ScreenWidth, rawHeight, w, h, true).resize(pooled, out)
		return out
	}
	e.Reset()
	if err := ref.ResetGame(); err != nil {
		t.Fatal(err)
	}
	if _, err := ref.Act(int(Noop)); err != nil {
		t.Fatal(err)
	}
	obs, _ := observe(e, spec)
	frame := h * w
	if string(obs[frame:]) != string(expect(grayOf(ref.Screen()))) {
		t.Fatal("first observation is not the gray screen after the reset NOOP")
	}
	rng := rand.New(rand.NewPCG(5, 5))
	pooled := make([]uint8, rawHeight*ScreenWidth)
	prevNewest := append([]uint8(nil), obs[frame:]...)
	endings := map[int]int{}
	for step := range steps {
		if allEndings && endings[1] > 0 && endings[2] > 0 && endings[3] > 0 {
			break
		}
		a := rng.IntN(spec.ActionSpace.N)
		res := e.Step([]float32{float32(a)})
		reward := 0
		var frames [4][]uint8
		ranFrames := 0
		for k := range 4 {
			r, err := ref.Act(int(e.actions[a]))
			if err != nil {
				t.Fatal(err)
			}
			reward += r
			frames[k] = grayOf(ref.Screen())
			ranFrames++
			if ref.GameOver() {
				break
			}
		}
		var want []uint8
		switch ranFrames {
		case 4: // every frame ran: the max of the last two
			for i := range pooled {
				pooled[i] = max(frames[2][i], frames[3][i])
			}
			want = expect(pooled)
		case 3: // the game ended on the second-last frame: that frame alone
			want = expect(frames[2])
		default: // it ended earlier: the previous observation again
			want = prevNewest
		}
		obs, info := observe(e, spec)
		if string(obs[frame:]) != string(want) {
			for i := range want {
				if obs[frame+i] != want[i] {
					t.Fatalf("step %d (%d frames ran) pixel %d = %d, want %d", step, ranFrames, i, obs[frame+i], want[i])
				}
			}
		}
		if res.Reward != float32(reward) || info[1] != float32(reward) {
			t.Fatalf("step %d reward %v (info %v), want %d", step, res.Reward, info[1], reward)
		}
		prevNewest = append(prevNewest[:0], obs[frame:]...)
		if ref.GameOver() != res.Terminated {
			t.Fatalf("step %d: terminated %v, reference game over %v", step, res.Terminated, ref.GameOver())
		}
		if res.Terminated {
			endings[ranFrames]++
			e.Reset()
			if err := ref.ResetGame(); err != nil {
				t.Fatal(err)
			}
			if _, err := ref.Act(int(Noop)); err != nil {
				t.Fatal(err)
			}
			obs, _ := observe(e, spec)
			if string(obs[frame:]) != string(expect(grayOf(ref.Screen()))) {
				t.Fatalf("step %d: observation after the reset differs", step)
			}
			prevNewest = append(prevNewest[:0], obs[frame:]...)
		}
	}
	t.Logf("game overs by frames run in the last step: %v", endings)
	if allEndings && (endings[1] == 0 || endings[2] == 0 || endings[3] == 0) {
		t.Errorf("games ended after %v frames of a step; want each of 1, 2 and 3 seen", endings)
	}
}

// TestStackOrder checks the frame stack: after a reset every slot holds the first
// frame; each step shifts the stack by one, oldest first, newest last.
func TestStackOrder(t *testing.T) {
	for _, gray := range []bool{true, false} {
		e, spec := testEnv(t, "breakout", 1, func(c *EnvConfig) { c.GrayScale = gray })
		wantShape := []int{4, 84, 84}
		if !gray {
			wantShape = []int{12, 84, 84}
		}
		if got := spec.ObsSpace.Shape; len(got) != 3 || got[0] != wantShape[0] || got[1] != 84 || got[2] != 84 {
			t.Fatalf("gray=%v: obs shape %v, want %v", gray, got, wantShape)
		}
		n := e.frameLen
		e.Reset()
		prev, _ := observe(e, spec)
		for i := 1; i < 4; i++ {
			if string(prev[i*n:(i+1)*n]) != string(prev[:n]) {
				t.Fatalf("gray=%v: after reset slot %d differs from slot 0", gray, i)
			}
		}
		if allZero(prev) {
			t.Fatal("first observation is black")
		}
		for step := range 20 {
			e.Step([]float32{float32(step % spec.ActionSpace.N)})
			cur, _ := observe(e, spec)
			if string(cur[:3*n]) != string(prev[n:]) {
				t.Fatalf("gray=%v step %d: slots 0..2 are not the previous slots 1..3", gray, step)
			}
			prev = cur
		}
	}
}

func allZero(b []uint8) bool {
	for _, v := range b {
		if v != 0 {
			return false
		}
	}
	return true
}

// TestRGBObservation checks the channel-first RGB layout with one frame per step (no
// max-pool): the newest frame's three planes are the palette's R, G and B of the
// screen, and the gray observation is ALE's weighting of them.
func TestRGBObservation(t *testing.T) {
	full := func(c *EnvConfig) {
		c.ImgHeight, c.ImgWidth, c.StackNum, c.FrameSkip = rawHeight, ScreenWidth, 1, 1
	}
	eg, sg := testEnv(t, "space_invaders", 9, full)
	ec, sc := testEnv(t, "space_invaders", 9, func(c *EnvConfig) { full(c); c.GrayScale = false })
	eg.Reset()
	ec.Reset()
	for range 40 {
		eg.Step([]float32{1})
		ec.Step([]float32{1})
	}
	g, _ := observe(eg, sg)
	c, _ := observe(ec, sc)
	n := rawHeight * ScreenWidth
	if len(c) != 3*n || sc.ObsSpace.Shape[0] != 3 {
		t.Fatalf("RGB frame has %d bytes and %d channels, want %d and 3", len(c), sc.ObsSpace.Shape[0], 3*n)
	}
	scr := ec.ale.Screen()
	for i := range n {
		rgb := vcs.NTSCPalette[scr[i]>>1]
		if c[i] != rgb[0] || c[n+i] != rgb[1] || c[2*n+i] != rgb[2] {
			t.Fatalf("pixel %d: planes (%d,%d,%d), palette %v", i, c[i], c[n+i], c[2*n+i], rgb)
		}
		want := math.Round(0.2989*float64(rgb[0]) + 0.5870*float64(rgb[1]) + 0.1140*float64(rgb[2]))
		if float64(g[i]) != want {
			t.Fatalf("pixel %d: gray %d, ALE's weighting of %v gives %v", i, g[i], rgb, want)
		}
	}
}

// TestNoopStarts checks the reset NOOPs: EnvPool draws 1..noop_max NOOP frames (one
// fewer, then FIRE, with fire reset), from the env's seed.
func TestNoopStarts(t *testing.T) {
	counts := map[int]int{}
	for seed := range int64(24) {
		// Ms. Pac-Man's minimal set has no FIRE, so there is no fire reset.
		e, _ := testEnv(t, "ms_pacman", seed, func(c *EnvConfig) { c.NoopMax = 5 })
		if e.fireReset {
			t.Fatal("ms_pacman has fire reset, but its minimal action set has no FIRE")
		}
		e.Reset()
		n := e.ale.EpisodeFrame()
		if n < 1 || n > 5 {
			t.Fatalf("seed %d: %d NOOP frames after a reset, want 1..5", seed, n)
		}
		counts[n]++
		// The same seed gives the same count.
		if seed < 3 {
			e2, _ := testEnv(t, "ms_pacman", seed, func(c *EnvConfig) { c.NoopMax = 5 })
			e2.Reset()
			if e2.ale.EpisodeFrame() != n {
				t.Fatalf("seed %d: NOOP count not reproducible (%d, then %d)", seed, n, e2.ale.EpisodeFrame())
			}
		}
	}
	if len(counts) != 5 {
		t.Errorf("NOOP counts over 24 seeds %v: want every value 1..5", counts)
	}
	// No NOOPs with noop_max 0 and no fire reset: the observation is the reset's.
	e, _ := testEnv(t, "ms_pacman", 1, func(c *EnvConfig) { c.NoopMax = 0 })
	e.Reset()
	if e.ale.EpisodeFrame() != 0 {
		t.Errorf("noop_max 0: %d frames after the reset, want 0", e.ale.EpisodeFrame())
	}
}

// TestFireReset checks that games whose action set has FIRE press it once after the
// reset NOOPs (0..noop_max-1 of them), and that use_fire_reset=false turns it off.
func TestFireReset(t *testing.T) {
	e, _ := testEnv(t, "space_invaders", 2, func(c *EnvConfig) { c.NoopMax = 1 })
	if !e.fireReset {
		t.Fatal("space_invaders has FIRE but no fire reset")
	}
	e.Reset()
	if n := e.ale.EpisodeFrame(); n != 1 {
		t.Fatalf("noop_max 1 with fire reset: %d frames after reset, want 1 (FIRE alone)", n)
	}
	if !e.ale.in.Fire[0] {
		t.Error("the last frame of the reset did not press FIRE")
	}
	e, _ = testEnv(t, "space_invaders", 2, func(c *EnvConfig) { c.NoopMax = 1; c.UseFireReset = false })
	e.Reset()
	if e.ale.in.Fire[0] || e.ale.EpisodeFrame() != 1 {
		t.Errorf("use_fire_reset=false: FIRE pressed %v, %d frames (want a single NOOP)", e.ale.in.Fire[0], e.ale.EpisodeFrame())
	}
	// Paddle games press the paddle's button; with the full action space a game
	// without FIRE in its minimal set gets fire reset too.
	e, _ = testEnv(t, "breakout", 2, func(c *EnvConfig) { c.NoopMax = 1 })
	e.Reset()
	if !e.ale.in.PaddleFire[0] {
		t.Error("breakout: the reset did not press the paddle button")
	}
	e, _ = testEnv(t, "ms_pacman", 2, func(c *EnvConfig) { c.FullActionSpace = true })
	if !e.fireReset {
		t.Error("ms_pacman with the full action space has no fire reset")
	}
}

// TestEpisodicLife plays Breakout with episodic_life until a life is lost: that step
// is done (terminated) while the game goes on, the following Reset continues the
// game (no real reset, elapsed_step keeps counting), and only game over resets it.
func TestEpisodicLife(t *testing.T) {
	e, spec := testEnv(t, "breakout", 4, func(c *EnvConfig) { c.EpisodicLife = true })
	e.Reset()
	_, info := observe(e, spec)
	lives := info[0]
	if lives != 5 {
		t.Fatalf("breakout starts with %v lives, want 5", lives)
	}
	lifeLosses := 0
	for step := 1; step < 20000 && !e.ale.GameOver(); step++ {
		res := e.Step([]float32{float32(step % spec.ActionSpace.N)})
		_, info := observe(e, spec)
		if info[0] < lives && info[0] > 0 {
			lifeLosses++
			if !res.Terminated || res.Truncated {
				t.Fatalf("life lost (%v -> %v) but terminated=%v truncated=%v", lives, info[0], res.Terminated, res.Truncated)
			}
			if info[2] != 0 || info[4] != 0 {
				t.Fatalf("life lost: info terminated %v (want 0: game not over), discount %v (want 0)", info[2], info[4])
			}
			elapsed := info[3]
			e.Reset()
			_, after := observe(e, spec)
			if after[0] != info[0] || after[3] != elapsed {
				t.Fatalf("reset after a life loss: lives %v elapsed %v, want %v and %v (no game reset)", after[0], after[3], info[0], elapsed)
			}
		} else if res.Terminated != e.ale.GameOver() {
			t.Fatalf("step %d: terminated %v without a life loss (game over %v)", step, res.Terminated, e.ale.GameOver())
		}
		lives = info[0]
		if res.Terminated && e.ale.GameOver() {
			if info[2] != 1 {
				t.Fatal("game over but info terminated is 0")
			}
			e.Reset()
			_, after := observe(e, spec)
			if after[0] != 5 || after[3] != 0 {
				t.Fatalf("reset after game over: lives %v elapsed %v, want 5 and 0", after[0], after[3])
			}
			break
		}
	}
	if lifeLosses != 4 {
		t.Errorf("saw %d life losses before game over, want 4", lifeLosses)
	}

	// zero_discount_on_life_loss alone: discount 0 at a life loss, episode goes on.
	e, spec = testEnv(t, "breakout", 4, func(c *EnvConfig) { c.ZeroDiscountOnLifeLoss = true })
	e.Reset()
	lives = 5
	for step := 1; step < 5000; step++ {
		res := e.Step([]float32{float32(step % spec.ActionSpace.N)})
		_, info := observe(e, spec)
		if info[0] < lives {
			if res.Terminated || info[4] != 0 {
				t.Fatalf("zero_discount_on_life_loss: life lost, terminated %v discount %v; want false and 0", res.Terminated, info[4])
			}
			return
		}
		if info[4] != 1 {
			t.Fatalf("step %d: discount %v without a life loss", step, info[4])
		}
	}
	t.Error("no life lost in 5000 steps")
}

// TestEnvStickyActions measures the sticky-action rate: with probability p the held
// action is kept instead of the new one, drawn every frame from the env's seed.
func TestEnvStickyActions(t *testing.T) {
	const p = 0.25
	e, _ := testEnv(t, "space_invaders", 11, func(c *EnvConfig) { c.RepeatActionProbability = p; c.FrameSkip = 1 })
	e.Reset()
	kept, n := 0, 0
	// Alternate two actions so a kept action is visible as the held one.
	for step := range 4000 {
		a := step % 2
		res := e.Step([]float32{float32(a)})
		if e.ale.heldA != e.actions[a] {
			kept++
		}
		n++
		if res.Terminated || res.Truncated {
			e.Reset()
		}
	}
	// With two alternating actions the held action differs from the requested one
	// when the draw keeps it (probability p) and it was the previous request, i.e. the
	// previous frame did not differ: q = p(1-q), so q = p/(1+p) = 0.2.
	rate := float64(kept) / float64(n)
	q := p / (1 + p)
	se := math.Sqrt(q * (1 - q) / float64(n))
	if math.Abs(rate-q) > 4*se {
		t.Errorf("sticky rate %.4f over %d frames, want %.3f +- %.4f", rate, n, q, 4*se)
	}
	// No sticky actions by default.
	e, _ = testEnv(t, "space_invaders", 11, func(c *EnvConfig) { c.FrameSkip = 1 })
	e.Reset()
	for step := range 500 {
		e.Step([]float32{float32(step % 2)})
		if e.ale.heldA != e.actions[step%2] {
			t.Fatal("an action was kept with repeat_action_probability 0")
		}
	}
}

// TestDeterminism checks that an env's trajectory depends only on its seed and
// actions: two envs with the same seed (sticky actions on) give the same observations,
// and another seed differs.
func TestDeterminism(t *testing.T) {
	run := func(seed int64) []uint8 {
		e, spec := testEnv(t, "space_invaders", seed, func(c *EnvConfig) { c.RepeatActionProbability = 0.25 })
		e.Reset()
		var all []uint8
		for step := range 200 {
			res := e.Step([]float32{float32(step * 7 % spec.ActionSpace.N)})
			obs, _ := observe(e, spec)
			all = append(all, obs[3*e.frameLen:]...)
			if res.Terminated || res.Truncated {
				e.Reset()
			}
		}
		return all
	}
	a, b, c := run(5), run(5), run(6)
	if string(a) != string(b) {
		t.Error("same seed, same actions, different observations")
	}
	if string(a) == string(c) {
		t.Error("different seeds gave identical trajectories")
	}
}

// TestRAMInfo checks the ram info key: its 128 columns hold the console's RAM after
// each step, byte for byte, and Breakout's lives byte (0xB9, RAM index 57) agrees with
// the lives column.
func TestRAMInfo(t *testing.T) {
	e, spec := testEnv(t, "breakout", 3, nil)
	at, n := spec.InfoSpan("ram")
	if n != 128 || at != len(InfoKeys)-1 || spec.InfoWidth() != len(InfoKeys)-1+128 {
		t.Fatalf("ram at column %d with %d columns, info width %d", at, n, spec.InfoWidth())
	}
	e.Reset()
	changed := false
	var last [128]byte
	for step := range 300 {
		e.Step([]float32{float32(step % 4)})
		_, info := observe(e, spec)
		ram := e.ALE().RAM()
		for i, v := range ram {
			if info[at+i] != float32(v) {
				t.Fatalf("step %d: ram[%d] = %v in info, %d in the console", step, i, info[at+i], v)
			}
		}
		if int(ram[57]) != int(info[spec.InfoIndex("lives")]) {
			t.Fatalf("step %d: lives byte %d, lives column %v", step, ram[57], info[spec.InfoIndex("lives")])
		}
		changed = changed || (step > 0 && *ram != last)
		last = *ram
	}
	if !changed {
		t.Fatal("the RAM never changed over 300 steps")
	}
}

// TestTruncation checks the time limit: done with truncated (not terminated) at
// exactly max_episode_steps steps, counted over the lives of one game with episodic
// life, and a real reset afterwards. The default limit is 27000 steps.
func TestTruncation(t *testing.T) {
	if d := DefaultEnvConfig(); d.MaxEpisodeSteps != 27000 {
		t.Errorf("default max_episode_steps %d, want 27000", d.MaxEpisodeSteps)
	}
	spec, err := envsSpecOf(t, "Pong-v5", nil)
	if err == nil && spec.MaxEpisodeSteps != 27000 {
		t.Errorf("Pong-v5 spec MaxEpisodeSteps %d, want 27000", spec.MaxEpisodeSteps)
	}
	const limit = 60
	e, sp := testEnv(t, "pong", 1, func(c *EnvConfig) { c.MaxEpisodeSteps = limit })
	e.Reset()
	for step := 1; step <= limit; step++ {
		res := e.Step([]float32{0})
		_, info := observe(e, sp)
		if step < limit && (res.Truncated || res.Terminated) {
			t.Fatalf("step %d: truncated %v terminated %v before the limit", step, res.Truncated, res.Terminated)
		}
		if step == limit {
			if !res.Truncated || res.Terminated || info[3] != limit || info[4] != 0 {
				t.Fatalf("step %d: truncated %v terminated %v elapsed %v discount %v; want true, false, %d, 0", step, res.Truncated, res.Terminated, info[3], info[4], limit)
			}
		}
	}
	e.Reset()
	if _, info := observe(e, sp); info[3] != 0 || e.ale.EpisodeFrame() > 30 {
		t.Errorf("after truncation the game was not reset (elapsed %v, episode frame %d)", info[3], e.ale.EpisodeFrame())
	}
	// Episodic life: the count runs across lives, and the reset after truncation is a
	// real one even though the game is not over.
	const elimit = 100
	e, sp = testEnv(t, "breakout", 1, func(c *EnvConfig) { c.MaxEpisodeSteps = elimit; c.EpisodicLife = true })
	e.Reset()
	steps, lifeResets := 0, 0
	for steps < elimit {
		res := e.Step([]float32{0})
		steps++
		if res.Truncated {
			break
		}
		if res.Terminated {
			if e.ale.GameOver() {
				t.Fatal("the game ended before the limit; pick a longer-lived setting")
			}
			lifeResets++
			e.Reset()
		}
	}
	if _, info := observe(e, sp); info[3] != elimit || steps != elimit || lifeResets == 0 {
		t.Fatalf("episodic life: truncated after %d steps with elapsed %v and %d life losses, want %d and at least one", steps, info[3], lifeResets, elimit)
	}
	e.Reset()
	if _, info := observe(e, sp); info[0] != 5 || info[3] != 0 {
		t.Errorf("after truncation with episodic life: lives %v elapsed %v, want a new game", info[0], info[3])
	}
}

// envsSpecOf returns a registered task's spec, skipping when its ROM is missing.
func envsSpecOf(t *testing.T, id string, opts map[string]any) (envpool.Spec, error) {
	t.Helper()
	if os.Getenv(ROMEnv) == "" {
		return envpool.Spec{}, errors.New("no ROMs")
	}
	return envs.SpecOf(id, opts)
}

// TestRewardClip plays Space Invaders (invaders are worth 5 to 30 points) with
// reward_clip: the reward is the sign, the "reward" info the raw score change.
func TestRewardClip(t *testing.T) {
	e, spec := testEnv(t, "space_invaders", 1, func(c *EnvConfig) { c.RewardClip = true })
	e.Reset()
	for step := range 3000 {
		res := e.Step([]float32{float32(1 + step%2)}) // FIRE, RIGHT
		_, info := observe(e, spec)
		raw := info[1]
		if res.Reward != float32(sign(int(raw))) {
			t.Fatalf("step %d: reward %v for raw reward %v, want its sign", step, res.Reward, raw)
		}
		if raw > 1 {
			return
		}
		if res.Terminated {
			e.Reset()
		}
	}
	t.Error("no reward above 1 in 3000 steps of Space Invaders")
}

// TestSpecAndOptions checks the registered tasks: ids, spaces, defaults, options.
func TestSpecAndOptions(t *testing.T) {
	if g, ok := GameByTaskID("MontezumaRevenge-v5"); !ok || g.Name != "montezuma_revenge" {
		t.Errorf("GameByTaskID(MontezumaRevenge-v5) = %s, %v", g.Name, ok)
	}
	ids := envs.List()
	for _, g := range Games() {
		found := false
		for _, id := range ids {
			found = found || id == g.TaskID()
		}
		if !found {
			t.Errorf("task %s is not registered", g.TaskID())
		}
	}
	g, _ := GameByName("pong")
	if _, _, err := ParseEnvConfig(g, map[string]any{"frame_skipp": 4}); err == nil || !strings.Contains(err.Error(), "frame_skipp") {
		t.Errorf("misspelt option: %v", err)
	}
	if _, _, err := ParseEnvConfig(g, map[string]any{"repeat_action_probability": 1.5}); err == nil {
		t.Error("repeat_action_probability 1.5 accepted")
	}
	if _, _, err := ParseEnvConfig(g, map[string]any{"mode": 7}); err == nil || !strings.Contains(err.Error(), "mode") {
		t.Errorf("pong mode 7: %v", err)
	}
	cfg, dir, err := ParseEnvConfig(g, map[string]any{"stack_num": 2, "gray_scale": false, "full_action_space": true, "roms_dir": "/x", "mode": 1})
	if err != nil || dir != "/x" || cfg.StackNum != 2 || cfg.GrayScale || *cfg.Mode != 1 {
		t.Fatalf("options: %+v %q %v", cfg, dir, err)
	}
	sp := cfg.Spec("Pong-v5", g)
	if sp.ActionSpace.N != 18 || sp.ObsSpace.Shape[0] != 6 || sp.FrameSkip != 4 || sp.ObsSpace.DType != envpool.Uint8 {
		t.Errorf("spec %+v", sp)
	}
	if sp := DefaultEnvConfig().Spec("Pong-v5", g); sp.ActionSpace.N != 6 || sp.ObsSpace.Shape[0] != 4 || sp.MaxEpisodeSteps != 27000 {
		t.Errorf("default Pong spec %+v", sp)
	}
}

// TestMissingROM checks the error of a task whose ROM is not in the ROM folder: it
// names the game, its md5, the folder and the import command. A file with the game's
// name but another md5 is reported, never run.
func TestMissingROM(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pong.bin"), []byte("not a rom"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := envs.SpecOf("Pong-v5", map[string]any{"roms_dir": dir})
	if err == nil {
		t.Fatal("Pong-v5 built from a folder without its ROM")
	}
	for _, want := range []string{"pong", "60e0ea3cbe0913d39803477945e9e5ec", dir, "train roms import", filepath.Join(dir, "pong.bin") + " has md5"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	t.Setenv(ROMEnv, dir)
	if _, err := envs.SpecOf("Breakout-v5", nil); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("with %s set, the error should name it: %v", ROMEnv, err)
	}
	t.Setenv(ROMEnv, "")
	if ROMDir("") != DefaultROMDir || ROMDir("a") != "a" {
		t.Errorf("ROMDir: %q %q", ROMDir(""), ROMDir("a"))
	}
}

// TestRenderSkipExact runs every game whose ROM is present twice with the same seed
// and random actions, once drawing only the observed frames and once drawing all of
// them (as ALE does), and requires identical observations.
func TestRenderSkipExact(t *testing.T) {
	dir := os.Getenv(ROMEnv)
	if dir == "" {
		t.Skipf("set %s to a folder of ALE's ROMs", ROMEnv)
	}
	steps := 200
	if testing.Short() {
		steps = 60
	}
	for _, name := range GameNames() {
		if _, err := FindROM(name, dir); err != nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			fast, spec := testEnv(t, name, 8, nil)
			slow, _ := testEnv(t, name, 8, nil)
			slow.renderAll = true
			fast.Reset()
			slow.Reset()
			rng := rand.New(rand.NewPCG(8, 8))
			for step := range steps {
				a := []float32{float32(rng.IntN(spec.ActionSpace.N))}
				rf, rs := fast.Step(a), slow.Step(a)
				of, _ := observe(fast, spec)
				os_, _ := observe(slow, spec)
				if rf != rs || string(of) != string(os_) {
					t.Fatalf("step %d: drawing only observed frames changed the result", step)
				}
				if rf.Terminated || rf.Truncated {
					fast.Reset()
					slow.Reset()
				}
			}
			if fast.renderAll {
				t.Logf("%s: an observed frame was short; the env fell back to drawing every frame", name)
			}
		})
	}
}

// TestPoolRows runs Breakout-v5 in an async pool and checks what the rows carry: the
// observation shape, the info columns, and that an env's rows match the same env run
// alone with the same seed and actions (the pool adds nothing and loses nothing).
func TestPoolRows(t *testing.T) {
	testROM(t, "breakout")
	pool, err := envs.Make("Breakout-v5", envs.Options{Options: envpool.Options{NumEnvs: 4, BatchSize: 2, NumThreads: 2, Seed: 10}})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	spec := pool.Spec()
	if spec.FrameSkip != 4 || spec.ObsSpace.Size() != 4*84*84 || spec.ActionSpace.N != 4 {
		t.Fatalf("spec %+v", spec)
	}
	for i, k := range InfoKeys {
		if spec.InfoIndex(k) != i {
			t.Fatalf("info key %s at %d", k, spec.InfoIndex(k))
		}
	}
	// Env 1 alone, fed the actions the pool gives env 1.
	alone, aspec := testEnv(t, "breakout", 11, nil)
	alone.Reset()
	b, err := pool.Reset()
	if err != nil {
		t.Fatal(err)
	}
	var sent []float32 // actions sent to env 1, in order
	checked := 0
	ids := make([]int32, 2)
	acts := make([]float32, 2)
	for step := range 200 {
		copy(ids, b.EnvID)
		for j := range acts {
			acts[j] = float32((step + j) % 4)
		}
		for j, id := range ids {
			if id == 1 && !b.Done(j) {
				sent = append(sent, acts[j])
			}
		}
		if b, err = pool.Step(acts, ids); err != nil {
			t.Fatal(err)
		}
		for j := range b.Size {
			if b.EnvID[j] != 1 || b.First[j] {
				continue
			}
			if len(sent) == 0 {
				t.Fatal("a row of env 1 without a sent action")
			}
			res := alone.Step(sent[0:1])
			sent = sent[1:]
			obs, info := observe(alone, aspec)
			if string(b.RowU8(j)) != string(obs) || b.Reward[j] != res.Reward || b.Terminated[j] != res.Terminated {
				t.Fatalf("step %d: env 1's pool row differs from the env run alone", step)
			}
			for k := range info {
				if b.InfoRow(j)[k] != info[k] {
					t.Fatalf("step %d: info column %d = %v, alone %v", step, k, b.InfoRow(j)[k], info[k])
				}
			}
			checked++
			if res.Terminated || res.Truncated {
				alone.Reset()
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked only %d rows of env 1", checked)
	}
}

// TestTruncationAt27000 plays Montezuma's Revenge with NOOPs (standing still at the
// start is safe) under the default limit, one frame per step to keep it short: the
// episode is truncated exactly at step 27000 and not before.
func TestTruncationAt27000(t *testing.T) {
	if testing.Short() {
		t.Skip("27000 emulated frames")
	}
	e, _ := testEnv(t, "montezuma_revenge", 1, func(c *EnvConfig) { c.FrameSkip = 1 })
	e.Reset()
	noop := []float32{0}
	for step := 1; step <= 27000; step++ {
		res := e.Step(noop)
		if res.Terminated {
			t.Fatalf("step %d: the game ended; the test needs a game that NOOPs survive", step)
		}
		if res.Truncated != (step == 27000) {
			t.Fatalf("step %d: truncated %v", step, res.Truncated)
		}
	}
}

// TestBilinearOption checks use_inter_area_resize=false: the env resizes with the
// bilinear path, giving a different (and not black) 84x84 frame from INTER_AREA's.
func TestBilinearOption(t *testing.T) {
	ea, spec := testEnv(t, "space_invaders", 1, nil)
	eb, _ := testEnv(t, "space_invaders", 1, func(c *EnvConfig) { c.UseInterAreaResize = false })
	if eb.resizers[0].kind != resizeLinear || ea.resizers[0].kind != resizeArea {
		t.Fatalf("resize kinds %d and %d", ea.resizers[0].kind, eb.resizers[0].kind)
	}
	ea.Reset()
	eb.Reset()
	for range 5 {
		ea.Step([]float32{1})
		eb.Step([]float32{1})
	}
	a, _ := observe(ea, spec)
	b, _ := observe(eb, spec)
	if allZero(b) || string(a) == string(b) {
		t.Errorf("bilinear frame black (%v) or equal to INTER_AREA's (%v)", allZero(b), string(a) == string(b))
	}
}

// TestPoolRowMatchesPerPixelMax checks poolRow's group shortcuts against the per-pixel
// max of the two looked-up values, on rows mixing one-colour groups, groups equal in
// both frames, differing groups, and lengths that leave a tail.
func TestPoolRowMatchesPerPixelMax(t *testing.T) {
	var lut [256]uint8
	for i := range lut {
		lut[i] = uint8(i*37 + 11) // not monotone: the max is taken after the lookup
	}
	s := uint64(7)
	next := func() uint64 { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s }
	for trial := range 2000 {
		n := 160 - int(next()%20)
		a, b := make([]uint8, n), make([]uint8, n)
		for i := 0; i < n; {
			run := 1 + int(next()%12)
			c := uint8(next())
			kind := next() % 3 // 0: same colour in both; 1: same bytes in both; 2: differ
			for j := i; j < min(i+run, n); j++ {
				switch kind {
				case 0:
					a[j], b[j] = c, c
				case 1:
					a[j] = uint8(next())
					b[j] = a[j]
				default:
					a[j], b[j] = uint8(next()), uint8(next())
				}
			}
			i += run
		}
		dst := make([]uint8, n)
		poolRow(dst, a, b, &lut)
		for i := range dst {
			if want := max(lut[a[i]], lut[b[i]]); dst[i] != want {
				t.Fatalf("trial %d, pixel %d of %d: %d, want %d", trial, i, n, dst[i], want)
			}
		}
	}
}
