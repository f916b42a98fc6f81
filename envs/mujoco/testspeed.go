package mujoco

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"time"
)

// TestspeedProgram is Debian's MuJoCo speed test (package libmujoco-samples).
const TestspeedProgram = "mujoco-testspeed"

// TestspeedResult is one run of mujoco-testspeed on a task's model.
type TestspeedResult struct {
	Task       string
	Command    []string // the exact command line that ran
	MjSteps    int      // mj_step calls timed
	MjStepRate float64  // mj_step calls per second, as mujoco-testspeed reports
	FrameSkip  int
	// EnvStepRate is MjStepRate / FrameSkip: the env steps per second a loop of bare
	// mj_step calls would give, an upper bound on one core (it leaves out the env step's
	// mj_rnePostConstraint, reward and observation).
	EnvStepRate float64
	Output      string // mujoco-testspeed's report
}

// RunTestspeed times a task's embedded model with mujoco-testspeed on one thread: nstep
// mj_step calls with control noise ctrlNoise (0.5 is close to uniform random actions in
// [-1, 1]). The model is written to a temporary file, as the program only reads files.
func RunTestspeed(ctx context.Context, taskID string, nstep int, ctrlNoise float64) (TestspeedResult, error) {
	res := TestspeedResult{Task: taskID, MjSteps: nstep}
	xml, err := TestspeedModelXML(taskID)
	if err != nil {
		return res, err
	}
	for _, d := range taskDefs {
		if d.id == taskID {
			res.FrameSkip = d.frameSkip
		}
	}
	prog, err := exec.LookPath(TestspeedProgram)
	if err != nil {
		return res, fmt.Errorf("mujoco: %s not found (%v); install Debian's libmujoco-samples (apt-get install libmujoco-samples)", TestspeedProgram, err)
	}
	dir, err := os.MkdirTemp("", "rlpool-testspeed")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	model := filepath.Join(dir, taskID+".xml")
	if err := os.WriteFile(model, xml, 0o644); err != nil {
		return res, err
	}
	res.Command = []string{prog, model, strconv.Itoa(nstep), "1", strconv.FormatFloat(ctrlNoise, 'g', -1, 64)}
	cmd := exec.CommandContext(ctx, res.Command[0], res.Command[1:]...)
	cmd.Dir = dir // it may write MUJOCO_LOG.TXT on a model error
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	res.Output = string(out)
	if err != nil {
		return res, fmt.Errorf("mujoco: %s: %v\n%s", TestspeedProgram, err, out)
	}
	m := regexp.MustCompile(`Steps per second\s*:\s*([0-9.eE+]+)`).FindSubmatch(out)
	if m == nil {
		return res, errors.New("mujoco: no 'Steps per second' in mujoco-testspeed's output:\n" + string(out))
	}
	res.MjStepRate, _ = strconv.ParseFloat(string(m[1]), 64)
	res.EnvStepRate = res.MjStepRate / float64(res.FrameSkip)
	return res, nil
}
