package inspect

import (
	"strings"

	"github.com/rlpool/rlpool/internal/rundir"
	"github.com/rlpool/rlpool/internal/slurm"
)

// AttachJobStates asks Slurm (one squeue call) for the state of the jobs of runs that
// are queued or running, and sets their JobState: "PENDING (Priority)", "RUNNING
// (node1)", or the end state of a job that has left the queue. A run whose job ended
// while its meta.json still says queued or running (killed, out of memory, node
// failure) gets that state as its status. Without Slurm's commands it leaves the runs
// as they are and returns the reason.
func AttachJobStates(runs []*Run, cl *slurm.Client) error {
	var ids []string
	var follow []*Run
	for _, r := range runs {
		if r.Job == nil || r.Job.Scheduler != rundir.SchedulerSlurm {
			continue
		}
		if r.Status != rundir.StatusQueued && r.Status != rundir.StatusRunning {
			continue
		}
		follow = append(follow, r)
		id, _, _ := strings.Cut(r.Job.ID, "_")
		ids = append(ids, id)
	}
	if len(follow) == 0 {
		return nil
	}
	if err := cl.Check(); err != nil {
		return err
	}
	q, err := cl.Queue(ids)
	if err != nil {
		return err
	}
	for _, r := range follow {
		t, ok := q[r.Job.ID]
		if !ok {
			var known bool
			if t, known, err = cl.Final(r.Job.ID); err != nil || !known {
				r.JobState = "slurm " + r.Job.ID + ": not in the queue"
				continue
			}
		}
		r.JobState = "slurm " + r.Job.ID + " " + t.State
		if t.Reason != "" && t.Reason != "None" {
			r.JobState += " (" + t.Reason + ")"
		}
		if t.Ended() && t.State != "COMPLETED" {
			r.Status = strings.ToLower(t.State) + " (slurm)"
		}
	}
	return nil
}
