package sweep

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rlpool/rlpool/internal/config"
	"github.com/rlpool/rlpool/internal/inspect"
	"github.com/rlpool/rlpool/internal/rundir"
	"github.com/rlpool/rlpool/internal/slurm"
)

// Files of a sweep run on Slurm, in the sweep folder.
const (
	SlurmDir = "slurm"      // batch scripts and the job log
	JobLog   = "jobs.jsonl" // every submission, job id and stop, one JSON object a line
)

// jobEvent is one line of the job log. A submission is written before sbatch runs
// (event "submit", with the job name and the trial of each array index) and its job
// id after ("submitted"): a controller that dies between the two finds the job by its
// name when resumed, so no trial is ever submitted twice. "stop" records that the
// controller signalled a task to stop (pruned or timeout).
type jobEvent struct {
	Time   time.Time `json:"time"`
	Event  string    `json:"event"`
	Name   string    `json:"name,omitempty"`
	Job    string    `json:"job,omitempty"` // a job id (submitted) or a task id (stop)
	Script string    `json:"script,omitempty"`
	Binary string    `json:"binary,omitempty"` // submit: the train the tasks run
	Trials []string  `json:"trials,omitempty"` // submit: the trial of each array index
	Trial  string    `json:"trial,omitempty"`  // stop
	Reason string    `json:"reason,omitempty"` // stop: pruned or timeout
	At     int64     `json:"at,omitempty"`     // stop: the prune checkpoint
}

// ReadJobLog reads a sweep folder's job log (tests and tools read it too).
func ReadJobLog(folder string) ([]jobEvent, error) {
	f, err := os.Open(filepath.Join(folder, SlurmDir, JobLog))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	defer f.Close()
	var evs []jobEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		var e jobEvent
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Event != "" {
			evs = append(evs, e) // a line cut short by a crash is skipped
		}
	}
	return evs, sc.Err()
}

// Submissions returns, from a job log, each submitted job id with the trial of each
// of its array indices.
func Submissions(evs []jobEvent) (ids []string, trials map[string][]string) {
	byName := map[string][]string{}
	trials = map[string][]string{}
	for _, e := range evs {
		switch e.Event {
		case "submit":
			byName[e.Name] = e.Trials
		case "submitted":
			ids = append(ids, e.Job)
			trials[e.Job] = byName[e.Name]
		}
	}
	return ids, trials
}

// slurmTrial is a trial the controller follows on the cluster.
type slurmTrial struct {
	t        Trial
	task     string // array task id, "123_4"
	since    time.Time
	seen     bool // squeue has shown it since the controller attached
	stop     string
	prunedAt int64
	warned   bool
	// endedAt is when the task was first seen in a state Slurm may requeue it from
	// (PREEMPTED, NODE_FAIL, ...); the controller waits before it records that end.
	endedAt time.Time
}

// requeueable are the end states from which Slurm requeues a job submitted with
// --requeue (when the cluster's policy says so). The controller waits RequeueWait for
// such a task to come back before recording its end.
var requeueable = map[string]bool{"PREEMPTED": true, "NODE_FAIL": true, "BOOT_FAIL": true, "REQUEUED": true}

// slurmRun is the controller of a sweep whose trials run as Slurm array tasks.
type slurmRun struct {
	sw     *sweeper
	ex     *SlurmExecutor
	cl     *slurm.Client
	binary string
	log    *os.File
	active []*slurmTrial
}

func (sr *slurmRun) event(e jobEvent) error {
	e.Time = time.Now().UTC()
	b, _ := json.Marshal(e)
	if _, err := sr.log.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("sweep: writing the job log: %w", err)
	}
	return sr.log.Sync()
}

// SlurmExecutor runs each trial as a task of a Slurm job array (sweep.executor =
// "slurm"), with the #SBATCH settings of [sweep.slurm]. The controller (the sweep)
// submits the trials, follows them in squeue, and stops them through
// scancel --signal=INT; stopped, it leaves them running and re-attaches when resumed.
type SlurmExecutor struct {
	// Client runs Slurm's commands (nil: a plain Client).
	Client *slurm.Client
	// Prepare makes a trial's run directory, status queued, for a Slurm task to
	// start (train.Prepare in `train sweep`).
	Prepare func(cfg *config.Config, source string) (*rundir.Dir, error)
	// QueueGrace is how long squeue may keep failing before the controller gives up
	// (the jobs run on; the sweep can be resumed); 0 means 2 minutes.
	QueueGrace time.Duration
	// OutputWait is how long a running Slurm task may show no start of its run
	// before the controller warns about the shared filesystem; 0 means 2 minutes.
	OutputWait time.Duration
	// RequeueWait is how long a Slurm task that ended PREEMPTED or NODE_FAIL may take
	// to come back requeued before its end is recorded; 0 means 3 minutes.
	RequeueWait time.Duration
	// EndWait is how long any other end but COMPLETED of a task the controller did not
	// stop must hold before it is recorded (a requeue passes through such states);
	// 0 means 10 s.
	EndWait time.Duration
}

// Name is "slurm".
func (*SlurmExecutor) Name() string { return ExecSlurm }

// setup fills in the defaults, applies the RLPOOL_SLURM_* variables to the sweep's
// [sweep.slurm] settings, and gives each trial its task's CPUs; the nodes find the
// runs by absolute paths.
func (ex *SlurmExecutor) setup(sw *sweeper) error {
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&ex.QueueGrace, 2 * time.Minute}, {&ex.OutputWait, 2 * time.Minute}, {&ex.RequeueWait, 3 * time.Minute}, {&ex.EndWait, 10 * time.Second}} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	if ex.Client == nil {
		ex.Client = &slurm.Client{}
	}
	used, err := sw.spec.Slurm.ApplyEnv(nil)
	if err != nil {
		return err
	}
	if len(used) > 0 {
		fmt.Fprintf(sw.opts.Stdout, "sweep %s: Slurm settings from the environment: %s\n", sw.spec.Name, strings.Join(used, ", "))
	}
	folder, err := filepath.Abs(sw.folder)
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	sw.folder, sw.threads = folder, sw.spec.Slurm.CPUs()
	return nil
}

// run submits the trials in todo that no earlier submission covers as one job
// array, re-attaches to those an earlier controller submitted, and follows them all
// to their end, pruning and timing out through scancel --signal=INT.
func (ex *SlurmExecutor) run(ctx context.Context, sw *sweeper, todo []Trial) error {
	cl := ex.Client
	if err := cl.Check(); err != nil {
		return err
	}
	if ex.Prepare == nil {
		return errors.New("sweep: no way to prepare run directories for Slurm")
	}
	sr := &slurmRun{sw: sw, ex: ex, cl: cl, binary: sw.spec.Slurm.Binary}
	if sr.binary == "" {
		sr.binary = sw.opts.Exe
	}
	if err := slurm.CheckBinary(sr.binary); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	if err := cl.CheckPartition(&sw.spec.Slurm); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(sw.folder, SlurmDir), 0o755); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	evs, err := ReadJobLog(sw.folder)
	if err != nil {
		return err
	}
	if sr.log, err = os.OpenFile(filepath.Join(sw.folder, SlurmDir, JobLog), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	defer sr.log.Close()
	if evs, err = sr.recover(evs); err != nil {
		return err
	}

	// Which task runs each trial, and which stops the controller already sent.
	ids, trialsOf := Submissions(evs)
	taskOf := map[string]string{}
	for _, id := range ids {
		for i, tid := range trialsOf[id] {
			taskOf[tid] = id + "_" + strconv.Itoa(i)
		}
	}
	stops := map[string]jobEvent{}
	for _, e := range evs {
		if e.Event == "stop" && taskOf[e.Trial] == e.Job {
			stops[e.Trial] = e
		}
	}
	var fresh []Trial
	for _, t := range todo {
		task, ok := taskOf[t.ID]
		if !ok || sw.opts.RetryFailed && sw.failedBefore[t.ID] {
			fresh = append(fresh, t)
			continue
		}
		st := &slurmTrial{t: t, task: task, since: time.Now()}
		if e, ok := stops[t.ID]; ok {
			st.stop, st.prunedAt = e.Reason, e.At
		}
		sr.active = append(sr.active, st)
	}
	if len(sr.active) > 0 {
		fmt.Fprintf(sw.opts.Stdout, "sweep %s: following %d trial(s) submitted earlier\n", sw.spec.Name, len(sr.active))
	}
	if len(fresh) > 0 {
		if err := sr.submit(fresh); err != nil {
			return err
		}
	}
	return sr.follow(ctx)
}

// recover completes the job log after a controller that died between writing a
// submission and its job id: the job is looked up by its unique name.
func (sr *slurmRun) recover(evs []jobEvent) ([]jobEvent, error) {
	done := map[string]bool{}
	for _, e := range evs {
		if e.Event == "submitted" {
			done[e.Name] = true
		}
	}
	for _, e := range evs {
		if e.Event != "submit" || done[e.Name] {
			continue
		}
		ids, err := sr.cl.JobsNamed(e.Name)
		if err != nil {
			return nil, fmt.Errorf("sweep: looking for job %s, submitted just before an earlier controller stopped: %w", e.Name, err)
		}
		if len(ids) == 0 {
			continue // sbatch never accepted it: its trials are submitted again
		}
		ev := jobEvent{Event: "submitted", Name: e.Name, Job: ids[0]}
		if err := sr.event(ev); err != nil {
			return nil, err
		}
		evs = append(evs, ev)
		done[e.Name] = true
	}
	return evs, nil
}

// submit prepares a run directory for each trial and submits them as one job array,
// at most spec.Parallel running at once.
func (sr *slurmRun) submit(trials []Trial) error {
	sw := sr.sw
	now := time.Now()
	name := fmt.Sprintf("rlpool-%s-%s-%04d", sw.spec.Name, now.Format("20060102-150405"), now.Nanosecond()/100000)
	var dirs []string
	for _, t := range trials {
		// A queued directory of a submission sbatch refused is set aside.
		if old := sw.findRunDir(t.ID); old != "" {
			os.Rename(old, filepath.Join(sw.folder, ".abandoned-"+filepath.Base(old)))
		}
		cfg, err := config.Load(sw.spec.Base, sw.sets(t))
		if err != nil {
			return fmt.Errorf("sweep: trial %s: %w", t.ID, err)
		}
		dir, err := sr.ex.Prepare(cfg, fmt.Sprintf("sweep %s, trial %s", sw.spec.Name, t.ID))
		if err != nil {
			return fmt.Errorf("sweep: trial %s: %w", t.ID, err)
		}
		dirs = append(dirs, dir.Path)
	}
	script := filepath.Join(sw.folder, SlurmDir, name+".sh")
	if err := os.WriteFile(script, []byte(sr.script(name, trials, dirs)), 0o755); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	ids := make([]string, len(trials))
	for i, t := range trials {
		ids[i] = t.ID
	}
	if err := sr.event(jobEvent{Event: "submit", Name: name, Script: script, Binary: sr.binary, Trials: ids}); err != nil {
		return err
	}
	job, err := sr.cl.Submit(script)
	if err != nil {
		return fmt.Errorf("sweep: submitting %d trial(s): %w (the sweep folder is unchanged apart from the queued run directories; fix the cause and run the sweep again)", len(trials), err)
	}
	if err := sr.event(jobEvent{Event: "submitted", Name: name, Job: job}); err != nil {
		return err
	}
	for i, t := range trials {
		task := job + "_" + strconv.Itoa(i)
		d := &rundir.Dir{Path: dirs[i]}
		d.WriteJob(&rundir.Job{Scheduler: rundir.SchedulerSlurm, ID: task, Submitted: now, Script: script,
			Log: filepath.Join(sw.folder, LogsDir, t.ID+".log")})
		sr.active = append(sr.active, &slurmTrial{t: t, task: task, since: time.Now()})
	}
	fmt.Fprintf(sw.opts.Stdout, "sweep %s: submitted %d trial(s) as Slurm job array %s (%s), %d at a time with %d CPU(s) each\n",
		sw.spec.Name, len(trials), job, name, min(sw.spec.Parallel, len(trials)), sw.threads)
	return nil
}

// script writes the batch script of a job array: each task starts (or, requeued,
// resumes) the run directory of its trial, its output appended to the trial's log.
func (sr *slurmRun) script(name string, trials []Trial, dirs []string) string {
	sw := sr.sw
	var vars strings.Builder
	vars.WriteString("runs=(\n")
	for _, d := range dirs {
		vars.WriteString("  " + slurm.Quote(d) + "\n")
	}
	vars.WriteString(")\ntrials=(\n")
	for _, t := range trials {
		vars.WriteString("  " + slurm.Quote(t.ID) + "\n")
	}
	fmt.Fprintf(&vars, ")\nrun=${runs[$SLURM_ARRAY_TASK_ID]}\nlog=%s/${trials[$SLURM_ARRAY_TASK_ID]}.log\n", slurm.Quote(filepath.Join(sw.folder, LogsDir)))
	b := slurm.Batch{
		Comment: "Trials of the rlpool sweep " + sw.spec.Name + ", written by train sweep.",
		Directives: []string{
			"--job-name=" + name,
			fmt.Sprintf("--array=0-%d%%%d", len(trials)-1, sw.spec.Parallel),
			"--output=" + filepath.Join(sw.folder, LogsDir, "slurm-%A_%a.out"),
		},
		Options: &sw.spec.Slurm, Vars: vars.String(), Binary: sr.binary,
	}
	return b.String()
}

// follow polls the queue until every active trial has ended and been recorded.
func (sr *slurmRun) follow(ctx context.Context) error {
	sw := sr.sw
	tick := time.NewTicker(sw.opts.Poll)
	defer tick.Stop()
	var failingSince time.Time
	for len(sr.active) > 0 {
		select {
		case <-ctx.Done():
			fmt.Fprintf(sw.opts.Stdout, "sweep %s: the controller stops; %d trial(s) go on running on the cluster. Re-attach with: train sweep -resume %s (or cancel them: scancel %s)\n",
				sw.spec.Name, len(sr.active), sw.folder, strings.Join(sr.jobs(), " "))
			return ctx.Err()
		case <-tick.C:
		}
		q, err := sr.cl.Queue(sr.jobs())
		if err != nil {
			if failingSince.IsZero() {
				failingSince = time.Now()
			}
			if time.Since(failingSince) >= sr.ex.QueueGrace {
				return fmt.Errorf("sweep: squeue has failed for %s: %w; the trials go on running on the cluster: once Slurm answers, re-attach with train sweep -resume %s",
					time.Since(failingSince).Round(time.Second), err, sw.folder)
			}
			continue
		}
		failingSince = time.Time{}
		var still []*slurmTrial
		for _, st := range sr.active {
			done, err := sr.check(st, q)
			if err != nil {
				return err
			}
			if !done {
				still = append(still, st)
			}
		}
		sr.active = still
	}
	return nil
}

// jobs lists the job ids of the active trials.
func (sr *slurmRun) jobs() []string {
	seen := map[string]bool{}
	var out []string
	for _, st := range sr.active {
		id, _, _ := strings.Cut(st.task, "_")
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// check looks at one trial's task: prunes, times out or warns while it runs, and
// records it once it has ended. It reports whether the trial is done.
func (sr *slurmRun) check(st *slurmTrial, q map[string]slurm.Task) (bool, error) {
	task, inQueue := q[st.task]
	if inQueue && !task.Ended() {
		st.seen, st.endedAt = true, time.Time{}
		if task.State == "RUNNING" {
			sr.watch(st, task)
		}
		return false, nil
	}
	if !inQueue {
		var known bool
		var err error
		task, known, err = sr.cl.Final(st.task)
		if err != nil || !known && !st.seen && time.Since(st.since) < 30*time.Second {
			return false, nil // just submitted, or the cluster is slow to answer
		}
		if !known {
			task = slurm.Task{ID: st.task, State: "UNKNOWN"}
		} else if !task.Ended() {
			return false, nil
		}
	}
	// A task the controller did not stop may yet come back: Slurm requeues after a
	// preemption or node failure, and a requeue (scontrol requeue, or the cluster's own)
	// can show the dying task FAILED for a moment before it is PENDING again. Only
	// COMPLETED is taken at once; the rest is confirmed after a wait.
	if wait := sr.endWait(task.State); wait > 0 && st.stop == "" {
		if st.endedAt.IsZero() {
			st.endedAt = time.Now()
		}
		if time.Since(st.endedAt) < wait {
			return false, nil
		}
	}
	return true, sr.finish(st, task)
}

// endWait is how long an end state must hold before it is recorded.
func (sr *slurmRun) endWait(state string) time.Duration {
	switch {
	case state == "COMPLETED":
		return 0
	case requeueable[state]:
		return sr.ex.RequeueWait
	}
	return sr.ex.EndWait
}

// watch applies pruning and the time budget to a running trial, and says once when
// its run shows no sign of starting.
func (sr *slurmRun) watch(st *slurmTrial, task slurm.Task) {
	sw := sr.sw
	if st.stop == "" && sw.spec.Prune != nil {
		if c := sw.checkPrune(st.t); c > 0 {
			sr.stop(st, StatusPruned, c)
		}
	}
	if st.stop == "" && sw.spec.BudgetSeconds > 0 && task.Elapsed.Seconds() >= sw.spec.BudgetSeconds {
		sr.stop(st, StatusTimeout, 0)
	}
	if !st.warned && task.Elapsed >= sr.ex.OutputWait {
		if dir := sw.findRunDir(st.t.ID); dir != "" {
			if r, err := inspect.Load(dir); err == nil && r.Status == rundir.StatusQueued {
				st.warned = true
				fmt.Fprintf(sw.opts.Stdout, "sweep %s: trial %s has run %s as task %s (%s) but its run directory shows no start: the sweep folder %s must be on a filesystem the compute nodes share; see %s\n",
					sw.spec.Name, st.t.ID, task.Elapsed, st.task, task.Reason, sw.folder, sr.slurmOut(st))
			}
		}
	}
}

// stop asks a task's train to checkpoint and exit, and notes why in the job log.
func (sr *slurmRun) stop(st *slurmTrial, reason string, at int64) {
	st.stop, st.prunedAt = reason, at
	sr.event(jobEvent{Event: "stop", Job: st.task, Trial: st.t.ID, Reason: reason, At: at})
	// In the background: scancel retries for seconds while a task that got the signal
	// is exiting, and the controller must go on watching the others. An error is a
	// task that ended meanwhile; its end is recorded as it comes.
	go sr.cl.Signal(st.task, "INT")
}

func (sr *slurmRun) slurmOut(st *slurmTrial) string {
	job, idx, _ := strings.Cut(st.task, "_")
	return filepath.Join(sr.sw.folder, LogsDir, "slurm-"+job+"_"+idx+".out")
}

// finish records an ended trial: finished when its run finished, pruned or timeout
// when the controller stopped it, timeout at Slurm's time limit, failed otherwise
// with Slurm's state.
func (sr *slurmRun) finish(st *slurmTrial, task slurm.Task) error {
	sw := sr.sw
	rec := Record{Status: StatusFailed, Wall: task.Elapsed.Seconds(), State: task.State, Log: filepath.Join(LogsDir, st.t.ID+".log")}
	note := ""
	var run *inspect.Run
	if dir := sw.findRunDir(st.t.ID); dir != "" {
		run, _ = inspect.Load(dir)
	}
	switch {
	case st.stop == StatusPruned: // judged at its checkpoint, however far it ran on
		rec.Status, rec.PrunedAt = st.stop, st.prunedAt
	case run != nil && run.Status == rundir.StatusFinished:
		rec.Status = StatusFinished
	case st.stop != "":
		rec.Status = st.stop
	case task.State == "TIMEOUT":
		rec.Status, note = StatusTimeout, "Slurm's time limit; raise [sweep.slurm] time"
	case run == nil || run.Status == rundir.StatusQueued:
		note = fmt.Sprintf("Slurm state %s and the run never started: see %s (is the sweep folder on a filesystem the nodes share?)", task.State, sr.slurmOut(st))
	default:
		note = fmt.Sprintf("Slurm state %s, exit %s; see %s", task.State, orNone(task.ExitCode), filepath.Join(sw.folder, rec.Log))
	}
	if rec.Wall == 0 && run != nil {
		rec.Wall = run.WallSeconds
	}
	return sw.record(st.t, rec, note)
}

func orNone(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
