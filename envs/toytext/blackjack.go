package toytext

import "github.com/rlpool/rlpool/envpool"

// blackjackOptions are Gymnasium's BlackjackEnv keyword arguments.
type blackjackOptions struct {
	Natural bool `toml:"natural" help:"pay 1.5 for a winning natural blackjack (an ace and a ten), when sab is off"`
	Sab     bool `toml:"sab" help:"Sutton and Barto's rules: a natural wins 1 unless the dealer has one too (overrides natural)"`
}

// blackjackDeck is the infinite deck cards are drawn from: face cards count 10.
var blackjackDeck = [13]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10}

func buildBlackjack(o blackjackOptions) (task, error) {
	// Gymnasium's Tuple(Discrete(32), Discrete(11), Discrete(2)) as three values.
	spec := envpool.Spec{ObsSpace: envpool.BoxSpace([]float32{0, 0, 0}, []float32{31, 10, 1}), ActionSpace: envpool.DiscreteSpace(2)}
	return task{spec: spec, make: func(seed int64) envpool.Env {
		return &Blackjack{gen: newGen(seed), natural: o.Natural, sab: o.Sab}
	}}, nil
}

// Blackjack is Blackjack-v1: draw cards (hit) or stop (stick) to beat the dealer's
// hand without going over 21, from an infinite deck.
type Blackjack struct {
	gen
	player, dealer []int
	over           bool // the player stuck or went bust: the dealer's hand is shown
	natural, sab   bool
}

func (e *Blackjack) draw() int { return blackjackDeck[e.rng.IntN(len(blackjackDeck))] }

// Reset deals two cards to the dealer, then two to the player.
func (e *Blackjack) Reset() {
	e.dealer = append(e.dealer[:0], e.draw(), e.draw())
	e.player = append(e.player[:0], e.draw(), e.draw())
	e.over = false
}

// usableAce reports whether a hand holds an ace that can count 11 without a bust.
func usableAce(hand []int) bool {
	sum, ace := 0, false
	for _, c := range hand {
		sum += c
		ace = ace || c == 1
	}
	return ace && sum+10 <= 21
}

// sumHand is a hand's total, a usable ace counted 11.
func sumHand(hand []int) int {
	sum := 0
	for _, c := range hand {
		sum += c
	}
	if usableAce(hand) {
		sum += 10
	}
	return sum
}

// score is a hand's total, 0 when bust.
func score(hand []int) int {
	if s := sumHand(hand); s <= 21 {
		return s
	}
	return 0
}

// isNatural reports a two-card 21: an ace and a ten.
func isNatural(hand []int) bool {
	return len(hand) == 2 && hand[0]+hand[1] == 11 && (hand[0] == 1 || hand[1] == 1)
}

// Step hits (1: one more card, -1 and the end on a bust) or sticks (0: the dealer
// draws to 17 or more, then +1 for the better score, -1 for the worse, 0 for a tie,
// with the natural and sab rules).
func (e *Blackjack) Step(act []float32) envpool.StepResult {
	if action(act, 2) == 1 {
		e.player = append(e.player, e.draw())
		if sumHand(e.player) > 21 {
			e.over = true
			return envpool.StepResult{Reward: -1, Terminated: true}
		}
		return envpool.StepResult{}
	}
	e.over = true
	for sumHand(e.dealer) < 17 {
		e.dealer = append(e.dealer, e.draw())
	}
	var reward float32
	switch p, d := score(e.player), score(e.dealer); {
	case p > d:
		reward = 1
	case p < d:
		reward = -1
	}
	switch {
	case e.sab && isNatural(e.player) && !isNatural(e.dealer):
		reward = 1
	case !e.sab && e.natural && isNatural(e.player) && reward == 1:
		reward = 1.5
	}
	return envpool.StepResult{Reward: reward, Terminated: true}
}

// Observe writes (player's sum, dealer's showing card, usable ace 0 or 1).
func (e *Blackjack) Observe(obs envpool.Obs, _ []float32) {
	obs.F32[0], obs.F32[1], obs.F32[2] = float32(sumHand(e.player)), float32(e.dealer[0]), 0
	if usableAce(e.player) {
		obs.F32[2] = 1
	}
}
