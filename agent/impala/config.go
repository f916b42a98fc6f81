package impala

// Optimisers, as spelt in configs.
const (
	OptRMSProp = "rmsprop"
	OptAdam    = "adam"
)

// Config is the [impala] section of a config. The defaults are the IMPALA paper's Atari
// settings (docs/design/algorithms.md): unrolls of 20, batches of 32, RMSProp lr 6e-4
// decayed linearly to 0, decay 0.99, eps 0.01 (TensorFlow style, inside the square
// root), entropy cost 0.01, baseline cost 0.5, gamma 0.99, rewards clipped to [-1, 1],
// global gradient norm clipped at 40, and V-trace truncation levels of 1.
type Config struct {
	UnrollLength int `toml:"unroll_length" range:"[1,100000]" help:"T: env steps per unroll (each unroll carries T+1 observations)"`
	BatchSize    int `toml:"batch_size" range:"[1,100000]" help:"B: unrolls per learner step"`
	NumActors    int `toml:"num_actors" range:"[1,1024]" help:"actor goroutines; each drives its own pool of env.num_envs envs"`
	QueueSize    int `toml:"queue_size" range:"[1,1000000]" help:"bound of the actor-to-learner queue, in unrolls (actors wait when it is full)"`

	LearningRate    float64 `toml:"learning_rate" range:"(0,1]" help:"optimiser step size"`
	AnnealLR        bool    `toml:"anneal_lr" help:"decay the learning rate linearly to 0 over run.total_steps"`
	Optimizer       string  `toml:"optimizer" oneof:"rmsprop|adam" help:"rmsprop (TensorFlow-style eps, as the paper) or adam"`
	RMSPropDecay    float64 `toml:"rmsprop_decay" range:"[0,1)" help:"RMSProp decay rho of the mean square (IMPALA 0.99; Gorgonia's default 0.999 is not it)"`
	RMSPropEps      float64 `toml:"rmsprop_eps" range:"(0,1]" help:"RMSProp epsilon, added inside the square root (TensorFlow style)"`
	RMSPropMomentum float64 `toml:"rmsprop_momentum" range:"[0,1)" help:"RMSProp momentum"`
	AdamEps         float64 `toml:"adam_eps" range:"(0,1]" help:"Adam epsilon"`
	MaxGradNorm     float64 `toml:"max_grad_norm" range:"[0,1e9]" help:"global gradient-norm clip; 0 disables"`

	Gamma        float64 `toml:"gamma" range:"[0,1]" help:"discount factor"`
	RhoBar       float64 `toml:"rho_bar" range:"(0,1e9]" help:"V-trace truncation of the TD-error importance weights"`
	CBar         float64 `toml:"c_bar" range:"(0,1e9]" help:"V-trace truncation of the trace-cutting weights c_t"`
	RhoBarPG     float64 `toml:"rho_bar_pg" range:"(0,1e9]" help:"truncation of the policy-gradient importance weights"`
	BaselineCost float64 `toml:"baseline_cost" range:"[0,1e6]" help:"weight of 0.5 sum (v_s - V(x_s))^2"`
	EntropyCost  float64 `toml:"entropy_cost" range:"[0,1e6]" help:"weight of the entropy bonus"`
	// AnnealEntropy lets the entropy bonus fade as the policy improves: late in a run
	// the V-trace advantages are small, and a fixed bonus then holds the policy near
	// uniform (docs/design/algorithms.md).
	AnnealEntropy bool `toml:"anneal_entropy" help:"decay entropy_cost linearly to 0 over entropy_steps (run.total_steps when 0)"`
	// EntropySteps is the horizon of anneal_entropy in env steps, so that the bonus
	// can be gone while the learning rate still has its run-long schedule: late in a
	// Pong run a bonus of a few thousandths keeps the sampled policy losing points the
	// greedy one wins. 0 anneals over run.total_steps, on the learning rate's schedule.
	EntropySteps int64   `toml:"entropy_steps" range:"[0,1e13]" help:"env steps over which anneal_entropy reaches 0; 0 means run.total_steps"`
	RewardClip   float64 `toml:"reward_clip" range:"[0,1e9]" help:"clip rewards to [-reward_clip, reward_clip] in the loss; 0 disables (returns are logged raw)"`
}

// DefaultConfig returns the paper's Atari settings with one actor and a queue of 64
// unrolls.
func DefaultConfig() Config {
	return Config{
		UnrollLength: 20, BatchSize: 32, NumActors: 1, QueueSize: 64,
		LearningRate: 6e-4, AnnealLR: true, Optimizer: OptRMSProp,
		RMSPropDecay: 0.99, RMSPropEps: 0.01, AdamEps: 1e-8, MaxGradNorm: 40,
		Gamma: 0.99, RhoBar: 1, CBar: 1, RhoBarPG: 1, BaselineCost: 0.5, EntropyCost: 0.01, RewardClip: 1,
	}
}

// loss returns the loss coefficients.
func (c *Config) loss() LossConfig {
	return LossConfig{VTrace: VTraceParams{RhoBar: c.RhoBar, CBar: c.CBar, RhoBarPG: c.RhoBarPG},
		BaselineCost: c.BaselineCost, EntropyCost: c.EntropyCost}
}
