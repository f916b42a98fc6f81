package minigrid

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// maxSide bounds a restored grid's sides, far above any task's, so that a corrupt
// state cannot ask for a huge grid.
const maxSide = 1 << 12

// stateVersion tags a saved state, so that a state of another layout is refused.
const stateVersion = 1

// MarshalBinary saves the episode exactly: the generator, the grid, the agent, what
// it carries, the step count, the mission and what the level remembers (a BabyAI
// level: the step limit, the objects' numbers and the instruction's verifier).
func (e *Env) MarshalBinary() ([]byte, error) {
	out, err := e.pcg.AppendBinary([]byte{stateVersion})
	if err != nil {
		return nil, err
	}
	ints := []int{e.w, e.h, e.agent.x, e.agent.y, e.dir, e.steps, e.target.x, e.target.y, e.other.x, e.other.y, len(e.obstacles)}
	for _, p := range e.obstacles {
		ints = append(ints, p.x, p.y)
	}
	for _, v := range ints {
		out = binary.AppendVarint(out, int64(v))
	}
	for _, c := range append([]cell{e.carrying, e.want}, e.cells...) {
		out = appendCell(out, c)
	}
	out = binary.AppendUvarint(out, uint64(len(e.mission)))
	out = append(out, e.mission...)
	if _, ok := e.lv.(babyLevel); ok {
		out = e.appendBaby(out)
	}
	return out, nil
}

// appendCell writes a cell as five bytes.
func appendCell(out []byte, c cell) []byte {
	flags := byte(0)
	if c.open {
		flags |= 1
	}
	if c.locked {
		flags |= 2
	}
	return append(out, c.kind, c.color, flags, c.innerKind, c.innerColor)
}

// errState is the error of a state that MarshalBinary did not write for this task.
var errState = errors.New("minigrid: the saved state is malformed or was saved by another task")

// UnmarshalBinary restores what MarshalBinary saved; a state that does not fit the
// task (another grid size, a truncated buffer) is refused and the env left as it was.
func (e *Env) UnmarshalBinary(data []byte) error {
	if len(data) == 0 || data[0] != stateVersion {
		return errState
	}
	pcgLen := len(must(e.pcg.AppendBinary(nil)))
	if len(data) < 1+pcgLen {
		return errState
	}
	r := reader{data: data[1+pcgLen:]}
	ints := make([]int, 11)
	for i := range ints {
		ints[i] = r.int()
	}
	w, h, n := ints[0], ints[1], ints[10]
	if r.err || w <= 0 || h <= 0 || w > maxSide || h > maxSide || w*h > len(data) || n < 0 || n > w*h || ints[5] < 0 {
		return errState
	}
	obstacles := make([]point, n)
	for i := range obstacles {
		obstacles[i] = point{r.int(), r.int()}
	}
	cells := make([]cell, w*h+2)
	for i := range cells {
		cells[i] = r.cell()
	}
	mission := r.bytes()
	limit, baby := e.maxSteps, (*babyState)(nil)
	if _, ok := e.lv.(babyLevel); ok {
		limit, baby = r.baby(w, h)
	}
	agent, target, other := point{ints[2], ints[3]}, point{ints[6], ints[7]}, point{ints[8], ints[9]}
	on := func(p point) bool { return p.x >= 0 && p.y >= 0 && p.x < w && p.y < h }
	unset := point{-1, -1}
	if r.err || len(r.data) != 0 || !on(agent) || ints[4] < 0 || ints[4] > 3 ||
		!on(target) && target != unset || !on(other) && other != unset || slices.ContainsFunc(obstacles, func(p point) bool { return !on(p) }) {
		return errState
	}
	if err := e.pcg.UnmarshalBinary(data[1 : 1+pcgLen]); err != nil {
		return fmt.Errorf("minigrid: saved generator: %w", err)
	}
	e.w, e.h, e.agent, e.dir, e.steps = w, h, agent, ints[4], ints[5]
	e.target, e.other = target, other
	e.obstacles = obstacles
	e.carrying, e.want, e.cells = cells[0], cells[1], cells[2:]
	e.mission = string(mission)
	e.limit, e.baby = limit, baby
	return nil
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err) // a PCG always marshals
	}
	return b
}

// reader reads what MarshalBinary wrote, remembering whether anything was amiss.
type reader struct {
	data []byte
	err  bool
}

func (r *reader) int() int {
	v, n := binary.Varint(r.data)
	if n <= 0 {
		r.err = true
		return 0
	}
	r.data = r.data[n:]
	return int(v)
}

func (r *reader) cell() cell {
	if len(r.data) < 5 {
		r.err = true
		return empty
	}
	d := r.data[:5]
	r.data = r.data[5:]
	if d[0] > objLava || d[1] >= numColors || d[2] > 3 || d[3] > objLava || d[4] >= numColors {
		r.err = true
	}
	return cell{kind: d[0], color: d[1], open: d[2]&1 != 0, locked: d[2]&2 != 0, innerKind: d[3], innerColor: d[4]}
}

func (r *reader) bytes() []byte {
	n, k := binary.Uvarint(r.data)
	if k <= 0 || n > uint64(len(r.data)-k) {
		r.err = true
		return nil
	}
	b := r.data[k : k+int(n)]
	r.data = r.data[k+int(n):]
	return b
}
