package minigrid

import "encoding/binary"

// BabyAI's instruction language and its verifier (minigrid's
// envs/babyai/core/verifier.py): object descriptions, the four action instructions
// and the three ways of joining two of them, each judging the agent's steps.

// status is a verifier's judgement after a step.
type status uint8

const (
	going   status = iota // minigrid's "continue"
	success               // the instruction is carried out
	failure               // a strict instruction was broken
)

// The locations an object description may name, relative to where the agent
// starts (minigrid's LOC_NAMES, in its order after locNone).
const (
	locNone uint8 = iota
	locLeft
	locRight
	locFront
	locBehind
)

// locNames are the locations as minigrid names them.
var locNames = [...]string{"", "left", "right", "front", "behind"}

// anyKind and anyColor stand for an ObjDesc's None: any object kind, any colour.
const (
	anyKind  = objUnseen
	anyColor = numColors
)

// objDesc describes a set of objects (minigrid's ObjDesc): a kind, a colour and a
// location, each perhaps left open. set holds the identities of the objects it
// matched when the episode began, poss where they lie (updated after a drop).
type objDesc struct {
	kind, color, loc uint8
	set              []int32
	poss             []point
}

// desc returns the description of objects of a kind and colour.
func desc(kind, color uint8) objDesc { return objDesc{kind: kind, color: color} }

// surface is the description in words, as minigrid writes it: "the red ball",
// "a door on your left", "the grey object behind you" ("a" when several objects
// match). The matches must have been found.
func (d *objDesc) surface() string {
	s := "object"
	if d.kind != anyKind {
		s = objectNames[d.kind]
	}
	if d.color != anyColor {
		s = colorNames[d.color] + " " + s
	}
	switch d.loc {
	case locNone:
	case locFront:
		s += " in front of you"
	case locBehind:
		s += " behind you"
	default:
		s += " on your " + locNames[d.loc]
	}
	if len(d.set) > 1 {
		return "a " + s
	}
	return "the " + s
}

// babyState is what a BabyAI episode remembers beside the grid: the instruction
// with its verifier's progress, and the identity of every object (minigrid compares
// objects by identity; here each grid square holds the number of the object on it,
// 0 for none, and carried the number of the carried object).
type babyState struct {
	instr   *instr
	uids    []int32
	carried int32
	next    int32 // the number the next new object gets (a box's contents)
}

// numberObjects gives every object on the grid its own number, from its square, as
// the layout is laid out.
func (e *Env) numberObjects() {
	b := e.baby
	b.uids = b.uids[:0]
	for i, c := range e.cells {
		id := int32(0)
		if !c.isEmpty() {
			id = int32(i + 1)
		}
		b.uids = append(b.uids, id)
	}
	b.carried, b.next = 0, int32(len(e.cells)+1)
}

// uidAt is the number of the object at p.
func (e *Env) uidAt(p point) int32 { return e.baby.uids[p.y*e.w+p.x] }

// find finds the objects matching d, as minigrid's find_matching_objs: with useLoc
// it chooses the set afresh (keeping only objects in the agent's room on the named
// side of it, when d names a location); without, it only finds where the objects
// of the set lie now. roomSize is the room grid's, to tell the agent's room (unused
// without useLoc).
func (e *Env) find(d *objDesc, useLoc bool, roomSize int) {
	if useLoc {
		d.set = d.set[:0]
	}
	d.poss = d.poss[:0]
	var ax, ay int // the corner of the agent's room
	if useLoc && d.loc != locNone {
		ax, ay = e.agent.x/(roomSize-1)*(roomSize-1), e.agent.y/(roomSize-1)*(roomSize-1)
	}
	ahead := dirVecs[e.dir]
	right := point{-ahead.y, ahead.x}
	for x := range e.w {
		for y := range e.h {
			c := e.get(x, y)
			if c.isEmpty() {
				continue
			}
			id := e.uidAt(point{x, y})
			if !useLoc && !containsID(d.set, id) {
				continue
			}
			if d.kind != anyKind && c.kind != d.kind || d.color != anyColor && c.color != d.color {
				continue
			}
			if useLoc && d.loc != locNone {
				if x < ax || y < ay || x >= ax+roomSize || y >= ay+roomSize {
					continue
				}
				v := point{x - e.agent.x, y - e.agent.y}
				side, front := v.x*right.x+v.y*right.y, v.x*ahead.x+v.y*ahead.y
				if d.loc == locLeft && side >= 0 || d.loc == locRight && side <= 0 ||
					d.loc == locFront && front <= 0 || d.loc == locBehind && front >= 0 {
					continue
				}
			}
			if useLoc {
				d.set = append(d.set, id)
			}
			d.poss = append(d.poss, point{x, y})
		}
	}
}

func containsID(ids []int32, id int32) bool {
	for _, v := range ids {
		if v == id {
			return true
		}
	}
	return false
}

// The instructions: the four actions and the three ways of joining two.
const (
	opGoTo uint8 = iota
	opOpen
	opPickup
	opPutNext
	opBefore // a, then b
	opAfter  // a after you b
	opAnd    // a and b, in either order
)

// instr is an instruction of the baby language with its verifier's state. An action
// (GoTo, Open, Pickup, PutNext) describes its object in obj (PutNext: the object to
// move, beside fixed, the one to put it next to); a sequence joins a and b. strict
// instructions fail on a wrong step (minigrid's debug levels).
type instr struct {
	op         uint8
	strict     bool
	obj, fixed objDesc
	a, b       *instr

	// The verifier's state: the sequences' progress, and what the agent carried
	// when the action was last verified (minigrid's preCarrying), by number.
	aDone, bDone status
	pre          int32
}

func goTo(d objDesc) *instr                   { return &instr{op: opGoTo, obj: d} }
func openInstr(d objDesc, strict bool) *instr { return &instr{op: opOpen, obj: d, strict: strict} }
func pickup(d objDesc, strict bool) *instr    { return &instr{op: opPickup, obj: d, strict: strict} }
func putNext(move, fixed objDesc) *instr      { return &instr{op: opPutNext, obj: move, fixed: fixed} }
func seq(op uint8, a, b *instr) *instr        { return &instr{op: op, a: a, b: b} }

// isSeq reports whether the instruction joins two others.
func (in *instr) isSeq() bool { return in.op >= opBefore }

// surface is the instruction in words, as minigrid writes it.
func (in *instr) surface() string {
	switch in.op {
	case opGoTo:
		return "go to " + in.obj.surface()
	case opOpen:
		return "open " + in.obj.surface()
	case opPickup:
		return "pick up " + in.obj.surface()
	case opPutNext:
		return "put " + in.obj.surface() + " next to " + in.fixed.surface()
	case opBefore:
		return in.a.surface() + ", then " + in.b.surface()
	case opAfter:
		return in.a.surface() + " after you " + in.b.surface()
	}
	return in.a.surface() + " and " + in.b.surface()
}

// reset readies the verifier for the episode (minigrid's reset_verifier): the
// objects described are found afresh.
func (in *instr) reset(e *Env, roomSize int) {
	in.aDone, in.bDone, in.pre = going, going, 0
	if in.isSeq() {
		in.a.reset(e, roomSize)
		in.b.reset(e, roomSize)
		return
	}
	e.find(&in.obj, true, roomSize)
	if in.op == opPutNext {
		e.find(&in.fixed, true, roomSize)
	}
}

// update finds where the described objects lie now (after a drop).
func (in *instr) update(e *Env) {
	if in.isSeq() {
		in.a.update(e)
		in.b.update(e)
		return
	}
	e.find(&in.obj, false, 0)
	if in.op == opPutNext {
		e.find(&in.fixed, false, 0)
	}
}

// navs is the most navigations the instruction needs (num_navs_needed): a PutNext
// two, another action one, a sequence its parts' sum.
func (in *instr) navs() int {
	switch {
	case in.isSeq():
		return in.a.navs() + in.b.navs()
	case in.op == opPutNext:
		return 2
	}
	return 1
}

// verify judges the step just taken with action a, as minigrid's verify.
func (in *instr) verify(e *Env, a int) status {
	switch in.op {
	case opBefore, opAfter:
		first, then, firstDone, thenDone := in.a, in.b, &in.aDone, &in.bDone
		if in.op == opAfter {
			first, then, firstDone, thenDone = in.b, in.a, &in.bDone, &in.aDone
		}
		if *firstDone == success {
			*thenDone = then.verify(e, a)
			if *thenDone != going {
				return *thenDone
			}
			return going
		}
		*firstDone = first.verify(e, a)
		switch *firstDone {
		case failure:
			return failure
		case success:
			return in.verify(e, a)
		}
		if in.strict && then.verify(e, a) == success {
			return failure
		}
		return going
	case opAnd:
		if in.aDone != success {
			in.aDone = in.a.verify(e, a)
		}
		if in.bDone != success {
			in.bDone = in.b.verify(e, a)
		}
		if in.aDone == success && in.bDone == success {
			return success
		}
		return going
	}
	return in.verifyAction(e, a)
}

// verifyAction judges an action instruction's step.
func (in *instr) verifyAction(e *Env, a int) status {
	f := e.front()
	switch in.op {
	case opGoTo:
		for _, p := range in.obj.poss {
			if p == f {
				return success
			}
		}
	case opOpen:
		if a != actToggle || !e.grid.in(f.x, f.y) {
			return going
		}
		fc := e.get(f.x, f.y)
		if fc.kind == objDoor && fc.open && containsID(in.obj.set, e.uidAt(f)) {
			return success
		}
		if in.strict && fc.kind == objDoor {
			return failure
		}
	case opPickup:
		pre := in.pre
		in.pre = e.baby.carried
		if a != actPickup {
			return going
		}
		if pre == 0 && e.baby.carried != 0 && containsID(in.obj.set, e.baby.carried) {
			return success
		}
		if in.strict && e.baby.carried != 0 {
			return failure
		}
	case opPutNext:
		pre := in.pre
		in.pre = e.baby.carried
		if in.strict && a == actPickup && e.baby.carried != 0 {
			return failure
		}
		if a != actDrop || pre == 0 || e.baby.carried != 0 || !containsID(in.obj.set, pre) || !e.grid.in(f.x, f.y) || e.uidAt(f) != pre {
			return going
		}
		for _, p := range in.fixed.poss {
			if abs(p.x-f.x)+abs(p.y-f.y) == 1 {
				return success
			}
		}
	}
	return going
}

// objsNext reports whether an object PutNext would move already lies next to one it
// would be put beside (minigrid's objs_next, for rejecting such layouts).
func (in *instr) objsNext() bool {
	for _, p := range in.obj.poss {
		for _, q := range in.fixed.poss {
			if abs(p.x-q.x)+abs(p.y-q.y) == 1 {
				return true
			}
		}
	}
	return false
}

// babyStep is the step of every BabyAI level: minigrid's rules, the objects'
// identities followed through pickups, drops and opened boxes, the described
// objects found again after a drop, and the instruction's verdict: success ends the
// episode with the success reward, failure with none.
func babyStep(e *Env, a int) (float32, bool) {
	b := e.baby
	f := e.front()
	on := e.grid.in(f.x, f.y)
	before, held := e.get(f.x, f.y), e.carrying
	r, term := e.act(a)
	if b == nil || b.instr == nil {
		return r, term
	}
	if on {
		k := f.y*e.w + f.x
		switch {
		case held.isEmpty() && !e.carrying.isEmpty():
			b.carried, b.uids[k] = b.uids[k], 0
		case !held.isEmpty() && e.carrying.isEmpty():
			b.uids[k], b.carried = b.carried, 0
		case before.kind == objBox && e.get(f.x, f.y).kind != objBox:
			b.uids[k] = 0
			if !e.get(f.x, f.y).isEmpty() {
				b.uids[k] = b.next
				b.next++
			}
		}
	}
	if a == actDrop {
		b.instr.update(e)
	}
	switch b.instr.verify(e, a) {
	case success:
		return e.successReward(), true
	case failure:
		return 0, true
	}
	return r, term
}

// maxInstrDepth bounds the nesting of a restored instruction: the grammar nests a
// sequence of two conjunctions of actions, three levels.
const maxInstrDepth = 3

// appendBaby writes a BabyAI episode's state: the step limit, the objects' numbers,
// and the instruction with its verifier's state (absent when no layout succeeded).
func (e *Env) appendBaby(out []byte) []byte {
	b := e.baby
	if b == nil {
		b = &babyState{}
	}
	out = binary.AppendVarint(out, int64(e.limit))
	out = binary.AppendVarint(out, int64(b.carried))
	out = binary.AppendVarint(out, int64(b.next))
	out = binary.AppendVarint(out, int64(len(b.uids)))
	for _, id := range b.uids {
		out = binary.AppendVarint(out, int64(id))
	}
	if b.instr == nil {
		return append(out, 0)
	}
	return b.instr.append(append(out, 1))
}

// append writes the instruction and its verifier's state.
func (in *instr) append(out []byte) []byte {
	flag := byte(0)
	if in.strict {
		flag = 1
	}
	out = append(out, in.op, flag, byte(in.aDone), byte(in.bDone))
	out = binary.AppendVarint(out, int64(in.pre))
	if in.isSeq() {
		return in.b.append(in.a.append(out))
	}
	out = in.obj.append(out)
	if in.op == opPutNext {
		out = in.fixed.append(out)
	}
	return out
}

// append writes the description and the objects it matched.
func (d *objDesc) append(out []byte) []byte {
	out = append(out, d.kind, d.color, d.loc)
	out = binary.AppendVarint(out, int64(len(d.set)))
	for _, id := range d.set {
		out = binary.AppendVarint(out, int64(id))
	}
	out = binary.AppendVarint(out, int64(len(d.poss)))
	for _, p := range d.poss {
		out = binary.AppendVarint(out, int64(p.x))
		out = binary.AppendVarint(out, int64(p.y))
	}
	return out
}

// baby reads what appendBaby wrote for a w x h grid, marking the reader failed on
// anything out of place.
func (r *reader) baby(w, h int) (int, *babyState) {
	n := w * h
	limit := r.int()
	b := &babyState{carried: int32(r.int()), next: int32(r.int())}
	if k := r.int(); k != n || limit < 0 || b.next < 0 || b.carried < 0 || b.carried > b.next {
		r.err = true
		return 0, nil
	}
	b.uids = make([]int32, n)
	for i := range b.uids {
		if b.uids[i] = int32(r.int()); b.uids[i] < 0 || b.uids[i] > b.next {
			r.err = true
		}
	}
	if r.byte() == 1 {
		b.instr = r.instr(w, h, maxInstrDepth)
	}
	return limit, b
}

// byte reads one byte.
func (r *reader) byte() byte {
	if len(r.data) == 0 {
		r.err = true
		return 0
	}
	v := r.data[0]
	r.data = r.data[1:]
	return v
}

// instr reads an instruction on a w x h grid nested at most depth deep.
func (r *reader) instr(w, h, depth int) *instr {
	in := &instr{op: r.byte(), strict: r.byte() == 1, aDone: status(r.byte()), bDone: status(r.byte()), pre: int32(r.int())}
	if depth == 0 || in.op > opAnd || in.aDone > failure || in.bDone > failure || in.pre < 0 {
		r.err = true
		return nil
	}
	if in.isSeq() {
		in.a = r.instr(w, h, depth-1)
		in.b = r.instr(w, h, depth-1)
		if in.a == nil || in.b == nil {
			r.err = true
			return nil
		}
		return in
	}
	in.obj = r.desc(w, h)
	if in.op == opPutNext {
		in.fixed = r.desc(w, h)
	}
	return in
}

// desc reads a description of objects on a w x h grid.
func (r *reader) desc(w, h int) objDesc {
	n := w * h
	d := objDesc{kind: r.byte(), color: r.byte(), loc: r.byte()}
	if d.kind > objLava || d.color > anyColor || d.loc > locBehind {
		r.err = true
	}
	k := r.int()
	if k < 0 || k > n {
		r.err = true
		return d
	}
	for range k {
		d.set = append(d.set, int32(r.int()))
	}
	k = r.int()
	if k < 0 || k > n {
		r.err = true
		return d
	}
	for range k {
		p := point{r.int(), r.int()}
		if p.x < 0 || p.y < 0 || p.x >= w || p.y >= h {
			r.err = true
		}
		d.poss = append(d.poss, p)
	}
	return d
}
