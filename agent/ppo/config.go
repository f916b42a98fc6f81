package ppo

import "fmt"

// Config is the [ppo] section of a config. Every implementation detail that published
// PPO relies on (docs/design/algorithms.md, items 1-15) has a field; the defaults are
// CleanRL's ppo.py for classic control.
type Config struct {
	NumSteps       int     `toml:"num_steps" range:"[1,1000000]" help:"steps per env per rollout (item 1)"`
	LearningRate   float64 `toml:"learning_rate" range:"(0,1]" help:"Adam step size"`
	AnnealLR       bool    `toml:"anneal_lr" help:"anneal the learning rate linearly to 0 over the run (item 4)"`
	Gamma          float64 `toml:"gamma" range:"[0,1]" help:"discount factor"`
	GAELambda      float64 `toml:"gae_lambda" range:"[0,1]" help:"GAE lambda (item 5)"`
	NumMinibatches int     `toml:"num_minibatches" range:"[1,1000000]" help:"shuffled minibatches per epoch (item 6)"`
	UpdateEpochs   int     `toml:"update_epochs" range:"[1,1000]" help:"passes over each rollout (item 6)"`
	NormAdv        bool    `toml:"norm_adv" help:"normalise advantages per minibatch (item 7)"`
	ClipCoef       float64 `toml:"clip_coef" range:"(0,10]" help:"surrogate clipping epsilon (item 8)"`
	// AnnealSteps is the horizon of both anneals in env steps: 0 anneals over
	// run.total_steps. CleanRL's Atari runs anneal over 10M steps (40M frames); a run cut
	// shorter than that (say a 10M-frame budget) keeps their schedule with this.
	AnnealSteps int64 `toml:"anneal_steps" range:"[0,1e13]" help:"env steps over which anneal_lr and anneal_clip reach 0; 0 means run.total_steps"`
	// WarmupSteps raises the learning rate linearly from near 0 over the first env
	// steps. Adam's first steps move every weight by about the full rate whatever the
	// gradient's size, and a dense layer's inputs after ReLU are all positive, so a
	// unit's weights all move one way and its pre-activation by the rate times the
	// sum of its inputs: at an Atari game's sample-efficient rates (about 1e-3) a few such steps
	// can push every unit of the CNN's dense layer below zero for good, after which the
	// features are constant and the run cannot learn (explained variance stays 0).
	WarmupSteps int64 `toml:"warmup_steps" range:"[0,1e13]" help:"env steps over which the learning rate rises linearly from near 0 to its schedule; 0 disables"`
	AnnealClip  bool  `toml:"anneal_clip" help:"anneal clip_coef linearly to 0 over the run, as RL Baselines3 Zoo's lin_0.2 schedules"`
	// AdaptiveKL switches the learning rate to rl_games' adaptive schedule, which keeps
	// each epoch's policy change near this KL instead of following a fixed anneal: the
	// rate grows while updates are timid and shrinks when they overshoot (optim.AdaptKL).
	AdaptiveKL  float64 `toml:"adaptive_kl" range:"[0,10]" help:"target approx KL of the adaptive learning-rate schedule (rl_games' kl_threshold; lr /1.5 above 2x, x1.5 below half, after each epoch); 0 keeps the fixed or annealed rate"`
	ClipVLoss   bool    `toml:"clip_vloss" help:"clip the value loss around the old values (item 9)"`
	EntCoef     float64 `toml:"ent_coef" range:"[0,10]" help:"entropy bonus coefficient (item 10)"`
	VFCoef      float64 `toml:"vf_coef" range:"[0,100]" help:"value loss coefficient (item 9)"`
	MaxGradNorm float64 `toml:"max_grad_norm" range:"[0,1e9]" help:"global gradient-norm clip; 0 disables (item 11)"`
	TargetKL    float64 `toml:"target_kl" range:"[0,10]" help:"stop the epoch loop when approx KL exceeds this; 0 disables (item 12)"`
	AdamEps     float64 `toml:"adam_eps" range:"(0,1]" help:"Adam epsilon; PPO uses 1e-5, not the 1e-8 default (item 3)"`
	NormObs     bool    `toml:"norm_obs" help:"normalise observations by running mean/std (item 13)"`
	ObsClip     float64 `toml:"obs_clip" range:"[0,1e9]" help:"clip normalised observations to +-obs_clip; 0 disables"`
	NormReward  bool    `toml:"norm_reward" help:"scale rewards by the running std of the discounted return (item 13)"`
	RewardClip  float64 `toml:"reward_clip" range:"[0,1e9]" help:"clip scaled rewards to +-reward_clip; 0 disables"`
	// BootstrapTruncated makes a time-limit truncation bootstrap from V(final obs)
	// (item 5); off reproduces CleanRL, which treats truncation as termination.
	BootstrapTruncated bool `toml:"bootstrap_truncated" help:"bootstrap truncated episodes from the value of their final observation (item 5)"`
	// Overlap collects each rollout while the update on the previous one runs, so that
	// the envs and the acting pass can use the cores the update leaves idle (on two
	// cores it does not raise the rate yet: docs/design/algorithms.md). The rollout is
	// then sampled by the weights from before that update: every update learns from
	// data one update old (a policy lag of one, which the clipped ratio absorbs as it
	// absorbs the lag between epochs). A checkpoint does not keep the rollout waiting
	// for its update; a resumed run collects a fresh one first.
	Overlap bool `toml:"overlap" help:"collect the next rollout while the update runs (a policy lag of one update)"`
	// Temperature sharpens a categorical policy: the policy is softmax(logits / T),
	// both where actions are sampled and in the loss, so PPO stays on-policy. T falls
	// linearly from 1 at env step temperature_start to this value temperature_steps
	// later. Late in a Pong run the most likely action already wins most games while
	// sampled games still lose points to unlikely actions the clipped updates remove
	// only slowly; a lower temperature takes those away at once. It also explores
	// less: over whole Pong runs it mostly reached a mean of 19 sooner but 20 less often, so
	// the bundled configs leave it at 1 (docs/design/algorithms.md).
	Temperature      float64 `toml:"temperature" range:"(0,1]" help:"sampling temperature the categorical policy softmax(logits/T) reaches; 1 leaves it as is"`
	TemperatureStart int64   `toml:"temperature_start" range:"[0,1e13]" help:"env step at which the temperature starts to fall from 1"`
	TemperatureSteps int64   `toml:"temperature_steps" range:"[0,1e13]" help:"env steps over which the temperature falls linearly from 1 to ppo.temperature; 0 drops it at once"`
}

// TemperatureAt is the policy's sampling temperature after envSteps env steps.
func (c *Config) TemperatureAt(envSteps int64) float64 {
	if c.Temperature == 1 || c.Temperature == 0 || envSteps < c.TemperatureStart {
		return 1
	}
	if done := envSteps - c.TemperatureStart; c.TemperatureSteps > 0 && done < c.TemperatureSteps {
		return 1 + (c.Temperature-1)*float64(done)/float64(c.TemperatureSteps)
	}
	return c.Temperature
}

// DefaultConfig returns CleanRL ppo.py's settings (4 envs x 128 steps, lr 2.5e-4
// annealed, gamma 0.99, lambda 0.95, 4 minibatches, 4 epochs, clip 0.2, ent 0.01,
// vf 0.5, grad norm 0.5, Adam eps 1e-5), with truncation bootstrapping on.
func DefaultConfig() Config {
	return Config{
		NumSteps: 128, LearningRate: 2.5e-4, AnnealLR: true, Gamma: 0.99, GAELambda: 0.95,
		NumMinibatches: 4, UpdateEpochs: 4, NormAdv: true, ClipCoef: 0.2, ClipVLoss: true,
		EntCoef: 0.01, VFCoef: 0.5, MaxGradNorm: 0.5, AdamEps: 1e-5,
		ObsClip: 10, RewardClip: 10, BootstrapTruncated: true, Temperature: 1,
	}
}

// Check reports combinations that the field ranges cannot: the rollout must split into
// equal minibatches, and only one schedule may set the learning rate.
func (c *Config) Check(numEnvs int) error {
	if c.AdaptiveKL > 0 && c.AnnealLR {
		return fmt.Errorf("ppo.adaptive_kl = %g and ppo.anneal_lr = true both set the learning rate; set anneal_lr = false to use the adaptive schedule", c.AdaptiveKL)
	}
	if c.AdaptiveKL > 0 && c.WarmupSteps > 0 {
		return fmt.Errorf("ppo.adaptive_kl = %g and ppo.warmup_steps = %d both set the learning rate; set warmup_steps = 0 to use the adaptive schedule", c.AdaptiveKL, c.WarmupSteps)
	}
	if n := c.NumSteps * numEnvs; n%c.NumMinibatches != 0 {
		return fmt.Errorf("ppo.num_minibatches = %d must divide the rollout size ppo.num_steps x env.num_envs = %d x %d = %d",
			c.NumMinibatches, c.NumSteps, numEnvs, n)
	}
	return nil
}
