package atari_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	"github.com/rlpool/rlpool/envs/atari"
)

// The random-agent fidelity run is long (minutes per game), so it runs only when asked:
//
//	go test ./envs/atari -run Fidelity -fidelity [-fidelity.episodes 30] [-fidelity.games pong,breakout]
var (
	fidelity         = flag.Bool("fidelity", false, "run the random-agent fidelity check (slow)")
	fidelityEpisodes = flag.Int("fidelity.episodes", 30, "episodes per game of the fidelity check")
	fidelityGames    = flag.String("fidelity.games", "", "comma-separated ROM names (default: every game whose ROM is in $RLPOOL_ROMS)")
	fidelityThreads  = flag.Int("fidelity.threads", 2, "pool worker threads of the fidelity check")
	fidelityMaxSteps = flag.Int("fidelity.maxsteps", 0, "stop a game after this many env steps in all and report the episodes finished by then (0: no limit)")
)

// randomAgentBands are the accepted ranges of a uniform random agent's mean score over
// 30 episodes with EnvPool's defaults (noop starts, no sticky actions): the published
// random-agent scores (DQN, Nature 2015: Pong -20.7, Breakout 1.7) widened by about
// three standard errors of a 30-episode mean.
var randomAgentBands = map[string][2]float64{
	"pong":     {-21, -20.0},
	"breakout": {0.9, 2.6},
}

// TestFidelityRandomAgent plays a uniform random agent for the given number of episodes
// of each game (through a pool, as training would) and reports the mean score; for
// Pong and Breakout it checks the mean against the published random-agent range.
func TestFidelityRandomAgent(t *testing.T) {
	if !*fidelity {
		t.Skip("run with -fidelity (slow: up to minutes per game)")
	}
	dir := os.Getenv(atari.ROMEnv)
	if dir == "" {
		t.Skipf("set %s to a folder of ALE's ROMs", atari.ROMEnv)
	}
	var games []string
	if *fidelityGames != "" {
		games = strings.Split(*fidelityGames, ",")
	} else {
		for _, name := range atari.GameNames() {
			if _, err := atari.FindROM(name, dir); err == nil {
				games = append(games, name)
			}
		}
	}
	for _, name := range games {
		g, ok := atari.GameByName(name)
		if !ok {
			t.Fatalf("unknown game %q", name)
		}
		id := g.TaskID()
		mean, sd, n, steps := randomAgent(t, id, *fidelityEpisodes)
		line := fmt.Sprintf("%-22s random agent: mean %8.2f  sd %7.2f  over %d episodes (%d steps)", id, mean, sd, n, steps)
		if b, ok := randomAgentBands[name]; ok {
			line += fmt.Sprintf("  accepted [%g, %g]", b[0], b[1])
			if mean < b[0] || mean > b[1] {
				t.Errorf("%s: random-agent mean %.2f outside the published range [%g, %g]", id, mean, b[0], b[1])
			}
		}
		t.Log(line)
		fmt.Println(line)
	}
}

// randomAgent runs episodes of a task with uniform random actions and returns the
// mean and standard deviation of the episode returns (raw, unclipped scores).
func randomAgent(t *testing.T, id string, episodes int) (mean, sd float64, n int, steps int) {
	t.Helper()
	numEnvs := max(*fidelityThreads, 1) * 2
	pool, err := envs.Make(id, envs.Options{Options: envpool.Options{NumEnvs: numEnvs, NumThreads: *fidelityThreads, Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	spec := pool.Spec()
	rawCol := spec.InfoIndex("reward")
	rng := rand.New(rand.NewPCG(7, 7))
	b, err := pool.Reset()
	if err != nil {
		t.Fatal(err)
	}
	returns := make([]float64, numEnvs)
	// Only episodes started in the first wave count per env slot until enough finish,
	// so the set of counted episodes does not favour short ones.
	started := make([]int, numEnvs)
	for i := range started {
		started[i] = 1
	}
	totalStarted := numEnvs
	var scores []float64
	actions := make([]float32, numEnvs)
	for len(scores) < episodes && (*fidelityMaxSteps <= 0 || steps < *fidelityMaxSteps) {
		for i := range actions {
			actions[i] = float32(rng.IntN(spec.ActionSpace.N))
		}
		b, err = pool.Step(actions, nil)
		if err != nil {
			t.Fatal(err)
		}
		steps += b.Size
		for i := range b.Size {
			id := b.EnvID[i]
			if b.First[i] {
				continue
			}
			returns[id] += float64(b.InfoRow(i)[rawCol])
			if b.Done(i) {
				if started[id] > 0 {
					scores = append(scores, returns[id])
					started[id]--
				}
				returns[id] = 0
				if totalStarted < episodes {
					started[id]++
					totalStarted++
				}
			}
		}
	}
	scores = scores[:min(len(scores), episodes)]
	if len(scores) == 0 {
		return math.NaN(), math.NaN(), 0, steps
	}
	for _, s := range scores {
		mean += s
	}
	mean /= float64(len(scores))
	for _, s := range scores {
		sd += (s - mean) * (s - mean)
	}
	sd = math.Sqrt(sd / float64(len(scores)))
	return mean, sd, len(scores), steps
}
