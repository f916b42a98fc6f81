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
func (r *RMSProp) SaveState() State {
	st := saveState(r.params)
	if !r.inited {
		st.S1, st.S2 = nil, nil
	}
	return st
}

// LoadState restores a state saved by SaveState. The gradients must be bound (the
// TapeMachine created), as for Step.
func (r *RMSProp) LoadState(st State) error {
	if st.S1 == nil {
		return nil
	}
	if err := loadState(r.params, st); err != nil {
		return err
	}
	r.spans = spans(r.params)
	r.inited = true // the mean squares are restored: do not reset them to InitMS
	return nil
}

// SaveState returns a copy of the solver's state; before the first Step it is empty.
func (a *Adam) SaveState() State {
	st := saveState(a.params)
	st.Steps = a.t
	if a.t == 0 {
		st.S1, st.S2 = nil, nil
	}
	return st
}

// LoadState restores a state saved by SaveState. The gradients must be bound (the
// TapeMachine created), as for Step.
func (a *Adam) LoadState(st State) error {
	if st.S1 == nil {
		return nil
	}
	if err := loadState(a.params, st); err != nil {
		return err
	}
	a.spans = spans(a.params)
	a.t = st.Steps
	return nil
}

func saveState(ps []param) State {
	var st State
	for i := range ps {
		st.S1 = append(st.S1, toF64(ps[i].s1))
		st.S2 = append(st.S2, toF64(ps[i].s2))
	}
	return st
}

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
