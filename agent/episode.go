package agent

// Episode is one finished episode as learners report it: the env step count of the
// run when it ended, its undiscounted return from the env's raw rewards (before any
// normalisation or clipping), and its length in env steps.
type Episode struct {
	EnvStep int64
	EnvID   int
	Return  float64
	Length  int
}

// Stat is one named number a learner reports per update (a loss, the KL, the learning
// rate); the names are the learner's metrics.csv columns.
type Stat struct {
	Name  string
	Value float64
}
