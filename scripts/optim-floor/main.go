// Command optim-floor reads a checkpoint written with RMSProp and prints, per weight
// tensor, the fraction of its running mean squares (the optim.s1.* arrays) below an
// epsilon: the weights whose step the epsilon shrinks below the nominal learning rate.
//
//	go run ./scripts/optim-floor RUNDIR/checkpoints/latest.ckpt 1e-4
package main

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/rlpool/rlpool/agent"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "optim-floor:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: optim-floor CHECKPOINT EPSILON")
	}
	eps, err := strconv.ParseFloat(args[1], 64)
	if err != nil || eps <= 0 {
		return fmt.Errorf("epsilon %q: want a positive number, such as the run's impala.rmsprop_eps", args[1])
	}
	c, err := agent.ReadCheckpointFile(args[0])
	if err != nil {
		return err
	}
	const prefix = "optim.s1."
	var names []string
	for k := range c.F64 {
		if strings.HasPrefix(k, prefix) {
			names = append(names, k)
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("%s holds no optimiser moments (optim.s1.*)", args[0])
	}
	sort.Strings(names)
	total, below := 0, 0
	for _, k := range names {
		n := 0
		for _, v := range c.F64[k] {
			if v < eps {
				n++
			}
		}
		total += len(c.F64[k])
		below += n
		fmt.Printf("%-16s %9d weights, %6.1f%% below %g\n", strings.TrimPrefix(k, prefix), len(c.F64[k]), 100*float64(n)/float64(len(c.F64[k])), eps)
	}
	fmt.Printf("%-16s %9d weights, %6.1f%% below %g\n", "all", total, 100*float64(below)/float64(total), eps)
	return nil
}
