// Package slurm submits rlpool runs to a Slurm cluster and follows them: batch scripts
// with the user's #SBATCH options, sbatch, squeue, scancel, and the end state of a
// job from sacct (or scontrol where the cluster keeps no accounting). It drives
// Slurm's own command-line tools, so it works with any cluster whose login node has
// them on PATH; the compute nodes run the same train binary.
package slurm

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Options are the #SBATCH settings of rlpool's jobs ([sweep.slurm] in a sweep file,
// flags of `train submit`). Empty fields leave the cluster's defaults.
type Options struct {
	Partition   string   // --partition
	Account     string   // --account
	QOS         string   // --qos
	Time        string   // --time, Slurm's formats: "30", "1:00:00", "1-00:00:00"
	CPUsPerTask int      // --cpus-per-task; the run's threads (0: 1)
	Mem         string   // --mem, e.g. "4G"
	Extra       []string // more #SBATCH lines, e.g. "--constraint=avx2"
	// Setup is shell text run before train on the node: module loads, exports
	// (RLPOOL_ROMS, LD_LIBRARY_PATH), a cd.
	Setup string
	// Binary is the train binary as the compute nodes see it (default: the running
	// binary's path, which must then be on a filesystem the nodes share).
	Binary string
}

// EnvVars lists each option with the environment variable that overrides it and a
// line of help.
var EnvVars = []struct{ Key, Var, Help string }{
	{"partition", "RLPOOL_SLURM_PARTITION", "partition (default: the cluster's)"},
	{"account", "RLPOOL_SLURM_ACCOUNT", "account to charge"},
	{"qos", "RLPOOL_SLURM_QOS", "quality of service"},
	{"time", "RLPOOL_SLURM_TIME", "time limit in Slurm's formats: 30, 2:00:00, 1-00:00:00"},
	{"cpus_per_task", "RLPOOL_SLURM_CPUS_PER_TASK", "CPUs of the job, the run's threads (default 1)"},
	{"mem", "RLPOOL_SLURM_MEM", "memory, e.g. 8G"},
	{"extra", "RLPOOL_SLURM_EXTRA", "more #SBATCH options, separated by ;"},
	{"setup", "RLPOOL_SLURM_SETUP", "shell text run on the node before train (module load, exports)"},
	{"binary", "RLPOOL_SLURM_BINARY", "train as the nodes see it (default: this binary's path)"},
}

// Set sets one option from its text (a config value or an environment variable).
func (o *Options) Set(key, value string) error {
	switch key {
	case "partition":
		o.Partition = value
	case "account":
		o.Account = value
	case "qos":
		o.QOS = value
	case "time":
		return setValid(&o.Time, key, value, validTime, `use Slurm's formats: minutes ("30"), "MM:SS", "HH:MM:SS", "D-HH", "D-HH:MM" or "D-HH:MM:SS"`)
	case "cpus_per_task":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > 4096 {
			return fmt.Errorf("cpus_per_task = %q: want an integer from 1 to 4096", value)
		}
		o.CPUsPerTask = n
	case "mem":
		return setValid(&o.Mem, key, value, validMem, "want a size such as 4000 (MB), 4G or 500M")
	case "extra":
		o.Extra = nil
		for _, l := range strings.Split(value, ";") {
			if l = strings.TrimSpace(l); l != "" {
				o.Extra = append(o.Extra, l)
			}
		}
		return o.checkExtra()
	case "setup":
		o.Setup = value
	case "binary":
		o.Binary = value
	default:
		return fmt.Errorf("unknown Slurm option %q: the options are partition, account, qos, time, cpus_per_task, mem, extra, setup and binary", key)
	}
	return nil
}

// setValid sets *dst to value when it is empty (Slurm's default) or valid accepts it,
// and otherwise leaves *dst and returns an error that names key and says what to
// write (want).
func setValid(dst *string, key, value string, valid func(string) bool, want string) error {
	if value != "" && !valid(value) {
		return fmt.Errorf("%s = %q: %s", key, value, want)
	}
	*dst = value
	return nil
}

// ApplyEnv overrides options with the RLPOOL_SLURM_* variables that are set (lookup
// is os.LookupEnv when nil), and returns the names of those it applied.
func (o *Options) ApplyEnv(lookup func(string) (string, bool)) ([]string, error) {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	var used []string
	for _, e := range EnvVars {
		v, ok := lookup(e.Var)
		if !ok {
			continue
		}
		if err := o.Set(e.Key, v); err != nil {
			return used, fmt.Errorf("%s: %w", e.Var, err)
		}
		used = append(used, e.Var)
	}
	return used, nil
}

func (o *Options) checkExtra() error {
	for _, l := range o.Extra {
		if !strings.HasPrefix(l, "-") || strings.ContainsAny(l, "\n\r") {
			return fmt.Errorf("extra line %q: want an sbatch option such as \"--constraint=avx2\" (written after #SBATCH)", l)
		}
	}
	return nil
}

func validTime(s string) bool {
	days, rest, hasDay := strings.Cut(s, "-")
	if hasDay {
		if _, err := strconv.Atoi(days); err != nil {
			return false
		}
	} else {
		rest = s
	}
	parts := strings.Split(rest, ":")
	if len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if n, err := strconv.Atoi(p); err != nil || n < 0 {
			return false
		}
	}
	return true
}

func validMem(s string) bool {
	num := strings.TrimRight(s, "KMGTkmgt")
	if len(s)-len(num) > 1 {
		return false
	}
	n, err := strconv.Atoi(num)
	return err == nil && n > 0
}

// Directives returns the #SBATCH lines for the options.
func (o *Options) Directives() []string {
	var out []string
	add := func(flag, v string) {
		if v != "" {
			out = append(out, "#SBATCH --"+flag+"="+v)
		}
	}
	add("partition", o.Partition)
	add("account", o.Account)
	add("qos", o.QOS)
	add("time", o.Time)
	add("cpus-per-task", strconv.Itoa(o.CPUs()))
	add("mem", o.Mem)
	for _, l := range o.Extra {
		out = append(out, "#SBATCH "+l)
	}
	return out
}

// CPUs is the cores each task gets: CPUsPerTask, or 1.
func (o *Options) CPUs() int { return max(o.CPUsPerTask, 1) }

// Quote returns s as one single-quoted shell word.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// Client runs Slurm's commands.
type Client struct {
	// Env is added to the commands' environment (e.g. SLURM_CONF for a test cluster).
	Env []string
	// Timeout bounds each command; 0 means 60 s.
	Timeout time.Duration
}

// ErrNoSlurm is returned when Slurm's commands are not on PATH.
var ErrNoSlurm = errors.New("slurm: sbatch not found on PATH: run on a machine with Slurm's client commands (Debian and Ubuntu: slurm-client; scripts/slurm-local.sh start brings up a one-machine cluster), or use the local executor")

// Check reports whether sbatch, squeue and scancel can be run.
func (c *Client) Check() error {
	for _, cmd := range []string{"sbatch", "squeue", "scancel"} {
		if _, err := exec.LookPath(cmd); err != nil {
			if cmd == "sbatch" {
				return ErrNoSlurm
			}
			return fmt.Errorf("slurm: %s not found on PATH: Slurm's client commands are incomplete on this machine", cmd)
		}
	}
	return nil
}

// run runs a Slurm command and returns its standard output; an error carries the
// command and its standard error.
func (c *Client) run(name string, args ...string) (string, error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), c.Env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) && name == "sbatch" {
			return "", ErrNoSlurm
		}
		return "", fmt.Errorf("slurm: %s: %w", name, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			msg := strings.TrimSpace(errb.String())
			if msg == "" {
				msg = strings.TrimSpace(out.String())
			}
			return out.String(), fmt.Errorf("slurm: %s %s: %v: %s", name, strings.Join(args, " "), err, msg)
		}
		return out.String(), nil
	case <-time.After(timeout):
		cmd.Process.Kill()
		<-done
		return "", fmt.Errorf("slurm: %s %s: no answer in %s (is slurmctld up? scontrol ping)", name, strings.Join(args, " "), timeout)
	}
}

// Submit submits a batch script file and returns the job id.
func (c *Client) Submit(script string) (string, error) {
	out, err := c.run("sbatch", "--parsable", script)
	if err != nil {
		return "", err
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out), ";") // "123" or "123;cluster"
	if _, err := strconv.ParseUint(id, 10, 64); err != nil {
		return "", fmt.Errorf("slurm: sbatch printed %q, not a job id", strings.TrimSpace(out))
	}
	return id, nil
}

// Partitions lists the cluster's partitions (sinfo).
func (c *Client) Partitions() ([]string, error) {
	out, err := c.run("sinfo", "-h", "-o", "%R")
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var parts []string
	for _, l := range strings.Fields(out) {
		if !seen[l] {
			seen[l] = true
			parts = append(parts, l)
		}
	}
	return parts, nil
}

// Task is the state of one job or array task.
type Task struct {
	ID       string        // "123" or "123_4"
	State    string        // PENDING, RUNNING, COMPLETED, CANCELLED, TIMEOUT, NODE_FAIL, ...
	Reason   string        // why pending, or the node list when running
	Elapsed  time.Duration // run time so far
	ExitCode string        // "0:0" (code:signal) once ended, where known
}

// Ended reports whether the state is final.
func (t Task) Ended() bool {
	switch t.State {
	case "PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED",
		"RESIZING", "SUSPENDED", "STOPPED", "SIGNALING", "STAGE_OUT", "RESV_DEL_HOLD", "SPECIAL_EXIT", "":
		return false
	}
	return true
}

// Queue returns the tasks squeue knows of for the given job ids (arrays expanded), by
// task id. Jobs that have left the queue are absent.
func (c *Client) Queue(jobs []string) (map[string]Task, error) {
	out := map[string]Task{}
	if len(jobs) == 0 {
		return out, nil
	}
	text, err := c.run("squeue", "-h", "-r", "--states=all", "-j", strings.Join(jobs, ","), "-o", "%i|%T|%M|%R")
	if err != nil {
		// squeue refuses ids it has already forgotten; those jobs have ended.
		if strings.Contains(err.Error(), "Invalid job id") {
			return out, nil
		}
		return nil, err
	}
	for _, line := range strings.Split(text, "\n") {
		f := strings.SplitN(strings.TrimSpace(line), "|", 4)
		if len(f) < 4 {
			continue
		}
		// %R is "(Reason)" while pending, the node list while running.
		out[f[0]] = Task{ID: f[0], State: baseState(f[1]), Elapsed: parseElapsed(f[2]), Reason: strings.Trim(f[3], "()")}
	}
	return out, nil
}

// baseState drops a state's qualifiers ("CANCELLED by 0" -> "CANCELLED").
func baseState(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), " ")
	return strings.TrimSuffix(s, "+")
}

// parseElapsed reads Slurm's [D-]HH:MM:SS, MM:SS or M:SS durations.
func parseElapsed(s string) time.Duration {
	var d time.Duration
	if days, rest, ok := strings.Cut(s, "-"); ok {
		n, _ := strconv.Atoi(days)
		d += time.Duration(n) * 24 * time.Hour
		s = rest
	}
	parts := strings.Split(s, ":")
	unit := time.Second
	for i := len(parts) - 1; i >= 0; i-- {
		n, _ := strconv.Atoi(parts[i])
		d += time.Duration(n) * unit
		unit *= 60
	}
	return d
}

// Final returns the end state of a task that has left the queue: from sacct when the
// cluster keeps accounting, else from scontrol (which remembers ended jobs for
// MinJobAge, 5 minutes by default). ok is false when neither knows the task.
func (c *Client) Final(id string) (t Task, ok bool, err error) {
	if out, err := c.run("sacct", "-n", "-P", "-X", "-j", id, "-o", "JobID,State,ExitCode,ElapsedRaw"); err == nil {
		for _, line := range strings.Split(out, "\n") {
			f := strings.Split(strings.TrimSpace(line), "|")
			if len(f) == 4 && f[0] == id {
				secs, _ := strconv.Atoi(f[3])
				return Task{ID: id, State: baseState(f[1]), ExitCode: f[2], Elapsed: time.Duration(secs) * time.Second}, true, nil
			}
		}
	}
	out, err := c.run("scontrol", "-o", "show", "job", id)
	if err != nil {
		if strings.Contains(err.Error(), "Invalid job id") {
			return Task{ID: id}, false, nil
		}
		return Task{ID: id}, false, err
	}
	for _, line := range strings.Split(out, "\n") {
		kv := fields(line)
		tid := kv["JobId"]
		if a, ok := kv["ArrayJobId"]; ok {
			tid = a + "_" + kv["ArrayTaskId"]
		}
		if tid != id {
			continue
		}
		return Task{ID: id, State: baseState(kv["JobState"]), Reason: kv["Reason"], ExitCode: kv["ExitCode"],
			Elapsed: parseElapsed(kv["RunTime"])}, true, nil
	}
	return Task{ID: id}, false, nil
}

// fields splits scontrol's one-line key=value output.
func fields(line string) map[string]string {
	m := map[string]string{}
	for _, f := range strings.Fields(line) {
		if k, v, ok := strings.Cut(f, "="); ok {
			m[k] = v
		}
	}
	return m
}

// JobsNamed returns the ids of the jobs with this name that the cluster still knows.
func (c *Client) JobsNamed(name string) ([]string, error) {
	out, err := c.run("squeue", "-h", "--states=all", "--name", name, "-o", "%F")
	if err != nil {
		return nil, err
	}
	ids := strings.Fields(out)
	if len(ids) == 0 {
		if out, err := c.run("sacct", "-n", "-X", "-P", "--name", name, "-o", "JobIDRaw", "-S", "now-7days"); err == nil {
			for _, l := range strings.Fields(out) {
				if id, _, _ := strings.Cut(l, "_"); id != "" {
					ids = append(ids, id)
				}
			}
		}
	}
	seen := map[string]bool{}
	var uniq []string
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			uniq = append(uniq, id)
		}
	}
	return uniq, nil
}

// Signal sends a signal (a name such as "INT") to a job or task's batch script,
// which rlpool's scripts replace with train: train checkpoints and exits.
func (c *Client) Signal(id, sig string) error {
	_, err := c.run("scancel", "--signal="+sig, "--full", id)
	return err
}

// Cancel cancels a job or task.
func (c *Client) Cancel(id string) error {
	_, err := c.run("scancel", id)
	return err
}

// Batch is a batch script that runs one train run (or, in a job array, the run of
// each task) on a node: it starts the run prepared in its directory, or resumes it
// from its checkpoint when Slurm requeues the job.
type Batch struct {
	Comment    string   // first comment line
	Directives []string // #SBATCH options of the caller (job name, output, array)
	Options    *Options
	// Vars is shell text that sets $run (the run directory) and $log (where train's
	// output is appended), e.g. from $SLURM_ARRAY_TASK_ID.
	Vars   string
	Binary string // absolute path of train on the nodes
}

// String writes the script.
func (b *Batch) String() string {
	var s strings.Builder
	fmt.Fprintf(&s, "#!/bin/bash\n# %s\n", b.Comment)
	for _, d := range b.Directives {
		s.WriteString("#SBATCH " + d + "\n")
	}
	s.WriteString("#SBATCH --open-mode=append\n#SBATCH --requeue\n")
	for _, d := range b.Options.Directives() {
		s.WriteString(d + "\n")
	}
	if b.Options.Setup != "" {
		s.WriteString("\n# setup\n" + b.Options.Setup + "\n")
	}
	fmt.Fprintf(&s, "\n%s\nbin=%s\n", strings.TrimRight(b.Vars, "\n"), Quote(b.Binary))
	s.WriteString(`if [ ! -x "$bin" ]; then
  echo "rlpool: no train binary at $bin on $(hostname): name one the compute nodes share (binary in [sweep.slurm], train submit -binary, or RLPOOL_SLURM_BINARY)" >&2
  exit 127
fi
if [ ! -d "$run" ]; then
  echo "rlpool: $run is not visible on $(hostname): runs must be on a filesystem the compute nodes share" >&2
  exit 2
fi
echo "# $(date -u +%FT%TZ) job ${SLURM_JOB_ID:-?} on $(hostname), restart ${SLURM_RESTART_COUNT:-0}" >> "$log"
`)
	fmt.Fprintf(&s, "export GOMAXPROCS=%d\nexec \"$bin\" -resume \"$run\" >> \"$log\" 2>&1\n", b.Options.CPUs())
	return s.String()
}

// CheckBinary checks that path is an absolute path to an executable on this machine
// (the nodes are expected to see the same filesystem).
func CheckBinary(path string) error {
	if !filepath.IsAbs(path) {
		return fmt.Errorf("train binary %q: give an absolute path, the one the compute nodes see", path)
	}
	if st, err := os.Stat(path); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		return fmt.Errorf("train binary %s: no executable there on this machine; the compute nodes run train by this path, so put it on a filesystem they share and name it (binary in [sweep.slurm], train submit -binary, or RLPOOL_SLURM_BINARY)", path)
	}
	return nil
}

// CheckPartition checks that the cluster has the partition named in o (if any).
func (c *Client) CheckPartition(o *Options) error {
	if o.Partition == "" {
		return nil
	}
	parts, err := c.Partitions()
	if err != nil {
		return fmt.Errorf("slurm: cannot list the cluster's partitions: %w", err)
	}
	for _, p := range parts {
		if p == o.Partition {
			return nil
		}
	}
	return fmt.Errorf("slurm: partition %q: the cluster has no such partition (sinfo lists %s); fix the partition setting or RLPOOL_SLURM_PARTITION", o.Partition, strings.Join(parts, ", "))
}
