package optim

import "fmt"

// State is a solver's per-parameter state, for checkpoints that resume training
// exactly: two float64 slices per parameter in parameter order (RMSProp: mean square
// and momentum buffer; Adam: first and second moments) and the number of steps taken.
// Added for the IMPALA learner (agent/impala), which checkpoints its optimiser.
type State struct {
	Steps  int
	S1, S2 [][]float64
}

// SaveState returns a copy of the solver's state; before the first Step it is empty.
func (r *RMSProp) SaveState() State { return saveState(r.params, r.inited) }

// LoadState restores a state saved by SaveState. The gradients must be bound (the
// TapeMachine created), as for Step.
func (r *RMSProp) LoadState(st State) error {
	loaded, err := r.restore(st)
	if loaded {
		r.inited = true // the mean squares are restored: do not reset them to InitMS
	}
	return err
}

// SaveState returns a copy of the solver's state; before the first Step it is empty.
func (a *Adam) SaveState() State {
	st := saveState(a.params, a.t > 0)
	st.Steps = a.t
	return st
}

// LoadState restores a state saved by SaveState. The gradients must be bound (the
// TapeMachine created), as for Step.
func (a *Adam) LoadState(st State) error {
	loaded, err := a.restore(st)
	if loaded {
		a.t = st.Steps
	}
	return err
}

// saveState copies the state of ps; it is empty unless started (the solver has
// stepped, so the state holds values).
func saveState(ps []param, started bool) State {
	var st State
	if !started {
		return st
	}
	for i := range ps {
		st.S1 = append(st.S1, toF64(ps[i].s1))
		st.S2 = append(st.S2, toF64(ps[i].s2))
	}
	return st
}

// toF64 returns a float64 copy of a []float32 or []float64 (nil for anything else).
func toF64(s any) []float64 {
	switch v := s.(type) {
	case []float32:
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = float64(x)
		}
		return out
	case []float64:
		return append([]float64(nil), v...)
	}
	return nil
}

// restore loads st into the parameters' state and splits them into spans. It
// reports whether st held any state: one saved before the solver's first Step holds
// none and leaves the parameters as they are.
func (s *solver) restore(st State) (loaded bool, err error) {
	if st.S1 == nil {
		return false, nil
	}
	if err := loadState(s.params, st); err != nil {
		return false, err
	}
	s.spans = spans(s.params)
	return true, nil
}

func loadState(ps []param, st State) error {
	if err := bind(ps); err != nil {
		return err
	}
	if len(st.S1) != len(ps) || len(st.S2) != len(ps) {
		return fmt.Errorf("optim: state holds %d parameters, the solver has %d", len(st.S1), len(ps))
	}
	for i := range ps {
		p := &ps[i]
		if len(st.S1[i]) != p.n || len(st.S2[i]) != p.n {
			return fmt.Errorf("optim: state of parameter %d (%v) has %d values, want %d", i, p.node, len(st.S1[i]), p.n)
		}
		switch s1 := p.s1.(type) {
		case []float32:
			s2 := p.s2.([]float32)
			for j := range s1 {
				s1[j], s2[j] = float32(st.S1[i][j]), float32(st.S2[i][j])
			}
		case []float64:
			copy(s1, st.S1[i])
			copy(p.s2.([]float64), st.S2[i])
		}
	}
	return nil
}
