// Command gotrace is a test helper for python/tests: it runs a task's Go pool
// (envs.Make, without the C API) with a deterministic action rule and prints one JSON
// line per returned row, so that the Python tests can check that rlpool's Python
// binding reproduces the engine's trajectories exactly.
//
// The action of env e at its k-th step (k counts the actions sent to that env) is
// (7k + 3e) mod n for discrete spaces and low + (high-low) * ((7k + 3e + 5j) mod 11)/10
// for element j of a box, computed in float64 and rounded to float32.
package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"unsafe"

	"github.com/rlpool/rlpool/envpool"
	"github.com/rlpool/rlpool/envs"
	_ "github.com/rlpool/rlpool/envs/all"
)

type row struct {
	Recv       int       `json:"recv"`
	EnvID      int32     `json:"env_id"`
	Reward     uint32    `json:"reward_bits"`
	Terminated bool      `json:"terminated"`
	Truncated  bool      `json:"truncated"`
	Elapsed    int32     `json:"elapsed"`
	Obs        string    `json:"obs_sha256"`
	Info       []float32 `json:"info"`
}

// action writes env e's k-th action into dst.
func action(sp *envpool.Space, k, e int, dst []float32) {
	if sp.Kind == envpool.Discrete {
		dst[0] = float32((7*k + 3*e) % sp.N)
		return
	}
	for j := range dst {
		v := float64((7*k+3*e+5*j)%11) / 10
		lo, hi := float64(sp.Low[j]), float64(sp.High[j])
		dst[j] = float32(lo + (hi-lo)*v)
	}
}

func main() {
	task := flag.String("task", "CartPole-v1", "task id")
	numEnvs := flag.Int("num-envs", 4, "envs")
	batch := flag.Int("batch-size", 0, "batch size (0: num-envs)")
	threads := flag.Int("threads", 1, "worker goroutines")
	seed := flag.Int64("seed", 0, "pool seed")
	maxSteps := flag.Int("max-episode-steps", 0, "time limit (0: the task's)")
	recvs := flag.Int("recvs", 100, "batches to receive after the reset")
	famJSON := flag.String("options", "{}", "family options as JSON")
	flag.Parse()
	var fam map[string]any
	if err := json.Unmarshal([]byte(*famJSON), &fam); err != nil {
		fmt.Fprintln(os.Stderr, "gotrace: -options:", err)
		os.Exit(2)
	}
	pool, err := envs.Make(*task, envs.Options{Options: envpool.Options{
		NumEnvs: *numEnvs, BatchSize: *batch, NumThreads: *threads, Seed: *seed, MaxEpisodeSteps: *maxSteps,
	}, Family: fam})
	if err != nil {
		fmt.Fprintln(os.Stderr, "gotrace:", err)
		os.Exit(1)
	}
	defer pool.Close()
	sp := &pool.Spec().ActionSpace
	dim := sp.Size()
	counts := make([]int, *numEnvs)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	if err := pool.AsyncReset(); err != nil {
		fmt.Fprintln(os.Stderr, "gotrace:", err)
		os.Exit(1)
	}
	for r := 0; r <= *recvs; r++ {
		b, err := pool.Recv()
		if err != nil {
			fmt.Fprintln(os.Stderr, "gotrace:", err)
			os.Exit(1)
		}
		acts := make([]float32, b.Size*dim)
		ids := make([]int32, b.Size)
		for i := range b.Size {
			var obs []byte
			if b.ObsU8 != nil {
				obs = b.RowU8(i)
			} else {
				f := b.RowF32(i)
				obs = unsafe.Slice((*byte)(unsafe.Pointer(&f[0])), len(f)*4)
			}
			sum := sha256.Sum256(obs)
			id := b.EnvID[i]
			if err := enc.Encode(row{Recv: r, EnvID: id, Reward: math.Float32bits(b.Reward[i]),
				Terminated: b.Terminated[i], Truncated: b.Truncated[i], Elapsed: b.ElapsedStep[i],
				Obs: hex.EncodeToString(sum[:]), Info: b.InfoRow(i)}); err != nil {
				fmt.Fprintln(os.Stderr, "gotrace:", err)
				os.Exit(1)
			}
			ids[i] = id
			action(sp, counts[id], int(id), acts[i*dim:(i+1)*dim])
			counts[id]++
		}
		if r < *recvs {
			if err := pool.Send(acts, ids); err != nil {
				fmt.Fprintln(os.Stderr, "gotrace:", err)
				os.Exit(1)
			}
		}
	}
}
