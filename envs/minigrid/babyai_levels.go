package minigrid

// The BabyAI levels (minigrid's envs/babyai/goto.py, open.py, pickup.py,
// putnext.py, unlock.py, other.py, synth.py), each a babyLevel whose mission lays out
// the rooms and sets the instruction in minigrid's order of draws.

// oneRoom is a level in a single room of side size.
func oneRoom(size int, mission func(g *babyGen)) babyLevel {
	return babyLevel{roomSize: size, rows: 1, cols: 1, mission: mission}
}

// maze is a level on a rows x cols grid of rooms of side size.
func maze(size, rows, cols int, mission func(g *babyGen)) babyLevel {
	return babyLevel{roomSize: size, rows: rows, cols: cols, mission: mission}
}

// goToRedBall is GoToRedBall (allGrey: GoToRedBallGrey, its distractors all grey): go
// to the red ball among distractors, all in reach.
func goToRedBall(size, dists int, allGrey bool) babyLevel {
	return oneRoom(size, func(g *babyGen) {
		g.placeAgent(-1, -1)
		ball, _ := g.addObject(0, 0, objBall, red)
		for _, d := range g.distractors(-1, -1, dists, false) {
			if allGrey {
				g.e.at(d.p).color = grey
			}
		}
		g.reachable(true)
		g.instr = goTo(desc(ball.kind, ball.color))
	})
}

// goToObj is GoToObj: go to the one object in the room.
func goToObj(size int) babyLevel {
	return oneRoom(size, func(g *babyGen) {
		g.placeAgent(-1, -1)
		o := g.distractors(-1, -1, 1, true)[0].c
		g.instr = goTo(desc(o.kind, o.color))
	})
}

// goToLocal is GoToLocal: go to one of the room's objects.
func goToLocal(size, dists int) babyLevel {
	return oneRoom(size, func(g *babyGen) {
		g.placeAgent(-1, -1)
		objs := g.distractors(-1, -1, dists, false)
		g.reachable(true)
		o := objs[g.randElem(len(objs))].c
		g.instr = goTo(desc(o.kind, o.color))
	})
}

// goToMaze is GoTo (and GoToOpen, GoToObjMaze…): go to an object anywhere in the
// maze, its doors perhaps all open.
func goToMaze(size, rows, cols, dists int, doorsOpen bool) babyLevel {
	return maze(size, rows, cols, func(g *babyGen) {
		g.placeAgent(-1, -1)
		g.connectAll(allColors, 5000)
		objs := g.distractors(-1, -1, dists, false)
		g.reachable(true)
		o := objs[g.randElem(len(objs))].c
		g.instr = goTo(desc(o.kind, o.color))
		if doorsOpen {
			g.openAllDoors()
		}
	})
}

// lockedRoomKey locks a random room's door (a random wall) and puts its key in
// another random room, as GoToImpUnlock and Unlock begin.
func (g *babyGen) lockedRoomKey() (i, j int, d cell) {
	i, j = g.e.randInt(0, g.cols), g.e.randInt(0, g.rows)
	d, _ = g.door(i, j, -1, numColors, lockedDoor)
	for {
		ik, jk := g.e.randInt(0, g.cols), g.e.randInt(0, g.rows)
		if ik != i || jk != j {
			g.addObject(ik, jk, objKey, d.color)
			return i, j, d
		}
	}
}

// distractorsOutside adds n distractors to every room but (li, lj).
func (g *babyGen) distractorsOutside(li, lj, n int) {
	for i := range g.cols {
		for j := range g.rows {
			if i != li || j != lj {
				g.distractors(i, j, n, false)
			}
		}
	}
}

// goToImpUnlock is GoToImpUnlock: go to an object in a locked room, whose key lies
// in another.
func goToImpUnlock(size, rows, cols int) babyLevel {
	return maze(size, rows, cols, func(g *babyGen) {
		li, lj, _ := g.lockedRoomKey()
		g.connectAll(allColors, 5000)
		g.distractorsOutside(li, lj, 2)
		g.placeAgentOutside(g.at(li, lj))
		g.reachable(true)
		o := g.distractors(li, lj, 1, false)[0].c
		g.instr = goTo(desc(o.kind, o.color))
	})
}

// goToRedBlueBall is GoToRedBlueBall: go to the one red or blue ball among
// distractors that are neither.
func goToRedBlueBall(size, dists int) babyLevel {
	return oneRoom(size, func(g *babyGen) {
		g.placeAgent(-1, -1)
		for _, d := range g.distractors(-1, -1, dists, false) {
			if d.c.kind == objBall && (d.c.color == blue || d.c.color == red) {
				fail("only one blue or red ball")
			}
		}
		color := [2]uint8{red, blue}[g.randElem(2)]
		ball, _ := g.addObject(0, 0, objBall, color)
		g.reachable(true)
		g.instr = goTo(desc(ball.kind, ball.color))
	})
}

// goToDoor is GoToDoor: go to one of the middle room's four doors.
func goToDoor() babyLevel {
	return maze(7, 3, 3, func(g *babyGen) {
		var doors []cell
		for range 4 {
			d, _ := g.door(1, 1, -1, numColors, lockRandom)
			doors = append(doors, d)
		}
		g.placeAgent(1, 1)
		d := doors[g.randElem(len(doors))]
		g.instr = goTo(desc(objDoor, d.color))
	})
}

// objsAndDoors adds n distractors (each kind and colour once when unique) and four
// doors to the middle room, and returns them all, the doors last.
func (g *babyGen) objsAndDoors(n int, unique bool, lock int) []cell {
	var objs []cell
	for _, d := range g.distractors(1, 1, n, unique) {
		objs = append(objs, d.c)
	}
	for range 4 {
		d, _ := g.door(1, 1, -1, numColors, lock)
		objs = append(objs, d)
	}
	return objs
}

// goToObjDoor is GoToObjDoor: go to an object or a door of the middle room.
func goToObjDoor() babyLevel {
	return maze(8, 3, 3, func(g *babyGen) {
		g.placeAgent(1, 1)
		objs := g.objsAndDoors(8, false, lockRandom)
		g.reachable(true)
		o := objs[g.randElem(len(objs))]
		g.instr = goTo(desc(o.kind, o.color))
	})
}

// openLevel is Open: open one of the maze's doors.
func openLevel(size, rows, cols int) babyLevel {
	return maze(size, rows, cols, func(g *babyGen) {
		g.placeAgent(-1, -1)
		g.connectAll(allColors, 5000)
		g.distractors(-1, -1, 18, false)
		g.reachable(true)
		var doors []cell
		for i := range g.cols {
			for j := range g.rows {
				r := g.at(i, j)
				for k, ok := range r.connected {
					if ok {
						doors = append(doors, g.e.get(r.doorPos[k].x, r.doorPos[k].y))
					}
				}
			}
		}
		d := doors[g.randElem(len(doors))]
		g.instr = openInstr(desc(objDoor, d.color), false)
	})
}

// openRedDoor is OpenRedDoor: open the red door of the first of two rooms.
func openRedDoor() babyLevel {
	return maze(5, 1, 2, func(g *babyGen) {
		g.door(0, 0, 0, red, unlocked)
		g.placeAgent(0, 0)
		g.instr = openInstr(desc(objDoor, red), false)
	})
}

// randColors draws n distinct colours (_rand_subset of the colour names).
func (g *babyGen) randColors(n int) []uint8 {
	var out []uint8
	for _, k := range g.e.randPerm(int(numColors))[:n] {
		out = append(out, uint8(k))
	}
	return out
}

// openDoor is OpenDoor: open the door named by its colour or by where it lies
// (selectBy "color" or "loc"; "": either, drawn), of the middle room's four.
func openDoor(debug bool, selectBy string) babyLevel {
	return maze(8, 3, 3, func(g *babyGen) {
		colors := g.randColors(4)
		for i, c := range colors {
			g.door(1, 1, i, c, unlocked)
		}
		by := selectBy
		if by == "" {
			by = [2]string{"color", "loc"}[g.randElem(2)]
		}
		d := desc(objDoor, colors[0])
		if by == "loc" {
			d = objDesc{kind: objDoor, color: anyColor, loc: uint8(1 + g.randElem(4))}
		}
		g.placeAgent(1, 1)
		g.instr = openInstr(d, debug)
	})
}

// openTwoDoors is OpenTwoDoors (OpenRedBlueDoors: red then blue): open the middle
// room's west door, then its east one; first and second numColors: drawn.
func openTwoDoors(first, second uint8, strict bool) babyLevel {
	l := maze(6, 3, 3, func(g *babyGen) {
		colors := g.randColors(2)
		a, b := first, second
		if a == numColors {
			a = colors[0]
		}
		if b == numColors {
			b = colors[1]
		}
		g.door(1, 1, 2, a, unlocked)
		g.door(1, 1, 0, b, unlocked)
		g.placeAgent(1, 1)
		g.instr = seq(opBefore, openInstr(desc(objDoor, a), strict), openInstr(desc(objDoor, b), false))
	})
	l.fixedSteps = 20 * 6 * 6
	return l
}

// openDoorsOrder is OpenDoorsOrder: open a door, or two in an order, of the middle
// room's n.
func openDoorsOrder(n int, debug bool) babyLevel {
	l := maze(6, 3, 3, func(g *babyGen) {
		colors := g.randColors(n)
		var doors []cell
		for i := range n {
			d, _ := g.door(1, 1, -1, colors[i], unlocked)
			doors = append(doors, d)
		}
		g.placeAgent(1, 1)
		pick := g.e.randPerm(len(doors))
		a := openInstr(desc(objDoor, doors[pick[0]].color), debug)
		b := openInstr(desc(objDoor, doors[pick[1]].color), debug)
		switch g.e.randInt(0, 3) {
		case 0:
			g.instr = a
		case 1:
			g.instr = seq(opBefore, a, b)
		default:
			g.instr = seq(opAfter, a, b)
		}
	})
	l.fixedSteps = 20 * 6 * 6
	return l
}

// pickupLevel is Pickup (blocked: UnblockPickup, where some object must be moved out
// of the way): pick up an object anywhere in the maze.
func pickupLevel(size, rows, cols int, blocked bool) babyLevel {
	return maze(size, rows, cols, func(g *babyGen) {
		g.placeAgent(-1, -1)
		g.connectAll(allColors, 5000)
		n := 18
		if blocked {
			n = 20
		}
		objs := g.distractors(-1, -1, n, false)
		if !blocked {
			g.reachable(true)
		} else if g.reachable(false) {
			fail("all objects reachable")
		}
		o := objs[g.randElem(len(objs))].c
		g.instr = pickup(desc(o.kind, o.color), false)
	})
}

// pickupDist is PickupDist: pick up an object named by its kind, its colour or both,
// among five distinct ones.
func pickupDist(debug bool) babyLevel {
	return oneRoom(7, func(g *babyGen) {
		objs := g.distractors(-1, -1, 5, true)
		g.placeAgent(0, 0)
		o := objs[g.randElem(len(objs))].c
		d := desc(o.kind, o.color)
		switch g.randElem(3) {
		case 0: // by kind
			d.color = anyColor
		case 1: // by colour
			d.kind = anyKind
		}
		g.instr = pickup(d, debug)
	})
}

// pickupAbove is PickupAbove: pick up the object in the room north of the middle one.
func pickupAbove() babyLevel {
	l := maze(6, 3, 3, func(g *babyGen) {
		o, _ := g.addObject(1, 0, anyKind, numColors)
		g.door(1, 1, 3, numColors, unlocked)
		g.placeAgent(1, 1)
		g.connectAll(allColors, 5000)
		g.instr = pickup(desc(o.kind, o.color), false)
	})
	l.fixedSteps = 8 * 6 * 6
	return l
}

// putNextLocal is PutNextLocal: put one of the room's distinct objects next to
// another.
func putNextLocal(size, n int) babyLevel {
	return oneRoom(size, func(g *babyGen) {
		g.placeAgent(-1, -1)
		objs := g.distractors(-1, -1, n, true)
		g.reachable(true)
		pick := g.e.randPerm(len(objs))
		a, b := objs[pick[0]].c, objs[pick[1]].c
		g.instr = putNext(desc(a.kind, a.color), desc(b.kind, b.color))
	})
}

// putNextLevel is PutNext: two rooms joined by an open wall, n distinct objects in
// each; put one of one room's next to one of the other's, perhaps starting with the
// first in hand.
func putNextLevel(size, n int, carrying bool) babyLevel {
	l := maze(size, 1, 2, func(g *babyGen) {
		g.placeAgent(0, 0)
		left := g.distractors(0, 0, n, true)
		right := g.distractors(1, 0, n, true)
		g.removeWall(0, 0, 0)
		a, b := left[g.randElem(len(left))], right[g.randElem(len(right))]
		if g.e.randBool() {
			a, b = b, a
		}
		g.carry = a.p
		g.instr = putNext(desc(a.c.kind, a.c.color), desc(b.c.kind, b.c.color))
	})
	l.fixedSteps, l.startCarrying = 8*size*size, carrying
	return l
}

// moveTwoAcross is MoveTwoAcross: two rooms as PutNext's; put an object of the left
// room next to one of the right, then another of the right next to one of the left.
func moveTwoAcross(size, n int) babyLevel {
	l := maze(size, 1, 2, func(g *babyGen) {
		g.placeAgent(0, 0)
		left := g.distractors(0, 0, n, true)
		right := g.distractors(1, 0, n, true)
		g.removeWall(0, 0, 0)
		pl, pr := g.e.randPerm(len(left)), g.e.randPerm(len(right))
		a, d := left[pl[0]].c, left[pl[1]].c
		b, c := right[pr[0]].c, right[pr[1]].c
		g.instr = seq(opBefore, putNext(desc(a.kind, a.color), desc(b.kind, b.color)),
			putNext(desc(c.kind, c.color), desc(d.kind, d.color)))
	})
	l.fixedSteps = 16 * size * size
	return l
}

// unlockMaze is Unlock: open a locked door whose key lies in another room.
func unlockMaze(size, rows, cols int) babyLevel {
	return maze(size, rows, cols, func(g *babyGen) {
		li, lj, d := g.lockedRoomKey()
		if g.e.randBool() {
			var others []uint8
			for _, c := range allColors {
				if c != d.color {
					others = append(others, c)
				}
			}
			g.connectAll(others, 5000)
		} else {
			g.connectAll(allColors, 5000)
		}
		g.distractorsOutside(li, lj, 3)
		g.placeAgentOutside(g.at(li, lj))
		g.reachable(true)
		g.instr = openInstr(desc(objDoor, d.color), false)
	})
}

// unlockLocal is UnlockLocal (and KeyInBox, the key hidden in a box): open the
// middle room's locked door with the key in the room.
func unlockLocal(distractors, inBox bool) babyLevel {
	return maze(8, 3, 3, func(g *babyGen) {
		d, _ := g.door(1, 1, -1, numColors, lockedDoor)
		if inBox {
			g.placeIn(1, 1, boxWith(g.e.randColor(), obj(objKey, d.color)))
		} else {
			g.addObject(1, 1, objKey, d.color)
			if distractors {
				g.distractors(1, 1, 3, true)
			}
		}
		g.placeAgent(1, 1)
		g.instr = openInstr(desc(objDoor, anyColor), false)
	})
}

// unlockPickup is UnlockPickup: pick up the box behind the locked door of the first
// of two rooms. minigrid means to fix its max_steps at 8 * 36 but does not (its test
// reads the builtin max), so the limit is the instruction's: 72.
func unlockPickup(distractors bool) babyLevel {
	return maze(6, 1, 2, func(g *babyGen) {
		box, _ := g.addObject(1, 0, objBox, numColors)
		d, _ := g.door(0, 0, 0, numColors, lockedDoor)
		g.addObject(0, 0, objKey, d.color)
		if distractors {
			g.distractors(-1, -1, 4, true)
		}
		g.placeAgent(0, 0)
		g.instr = pickup(desc(box.kind, box.color), false)
	})
}

// blockedUnlockPickup is BlockedUnlockPickup: UnlockPickup with a ball in front of
// the door.
func blockedUnlockPickup() babyLevel {
	l := maze(6, 1, 2, func(g *babyGen) {
		box, _ := g.addObject(1, 0, objBox, numColors)
		d, p := g.door(0, 0, 0, numColors, lockedDoor)
		g.e.set(p.x-1, p.y, obj(objBall, g.e.randColor()))
		g.addObject(0, 0, objKey, d.color)
		g.placeAgent(0, 0)
		g.instr = pickup(desc(box.kind, anyColor), false)
	})
	l.fixedSteps = 16 * 6 * 6
	return l
}

// unlockToUnlock is UnlockToUnlock: three rooms; the ball lies in the first behind a
// locked door whose key lies in the third, behind another locked door whose key
// lies in the middle room, where the agent starts.
func unlockToUnlock() babyLevel {
	l := maze(6, 1, 3, func(g *babyGen) {
		colors := g.randColors(2)
		g.door(0, 0, 0, colors[0], lockedDoor)
		g.addObject(2, 0, objKey, colors[0])
		g.door(1, 0, 0, colors[1], lockedDoor)
		g.addObject(1, 0, objKey, colors[1])
		ball, _ := g.addObject(0, 0, objBall, numColors)
		g.placeAgent(1, 0)
		g.instr = pickup(desc(ball.kind, anyColor), false)
	})
	l.fixedSteps = 30 * 6 * 6
	return l
}

// actionObjDoor is ActionObjDoor: go to, pick up or open an object or door of the
// middle room.
func actionObjDoor() babyLevel {
	return maze(7, 3, 3, func(g *babyGen) {
		objs := g.objsAndDoors(5, true, unlocked)
		g.placeAgent(1, 1)
		o := objs[g.randElem(len(objs))]
		d := desc(o.kind, o.color)
		switch {
		case g.e.randBool():
			g.instr = goTo(d)
		case o.kind == objDoor:
			g.instr = openInstr(d, false)
		default:
			g.instr = pickup(d, false)
		}
	})
}

// findObj is FindObjS5/6/7: pick up the object somewhere in the maze.
func findObj(size int) babyLevel {
	l := maze(size, 3, 3, func(g *babyGen) {
		i, j := g.e.randInt(0, g.rows), g.e.randInt(0, g.cols)
		o, _ := g.addObject(i, j, anyKind, numColors)
		g.placeAgent(1, 1)
		g.connectAll(allColors, 5000)
		g.instr = pickup(desc(o.kind, anyColor), false)
	})
	l.fixedSteps = 20 * size * size
	return l
}

// keyCorridor is BabyAI's KeyCorridor: MiniGrid's, with an instruction.
func keyCorridor(size, rows int, kind uint8) babyLevel {
	l := maze(size, rows, 3, func(g *babyGen) {
		for j := 1; j < rows; j++ {
			g.removeWall(1, j, 3)
		}
		k := g.e.randInt(0, rows)
		d, _ := g.door(2, k, 2, numColors, lockedDoor)
		o, _ := g.addObject(2, k, kind, numColors)
		g.addObject(0, g.e.randInt(0, rows), objKey, d.color)
		g.placeAgent(1, rows/2)
		g.connectAll(allColors, 5000)
		g.instr = pickup(desc(o.kind, anyColor), false)
	})
	l.fixedSteps = 30 * size * size
	return l
}

// oneRoomBall is OneRoomS8/12/16/20: pick up the ball in a room.
func oneRoomBall(size int) babyLevel {
	return oneRoom(size, func(g *babyGen) {
		ball, _ := g.addObject(0, 0, objBall, numColors)
		g.placeAgent(-1, -1)
		g.instr = pickup(desc(ball.kind, anyColor), false)
	})
}

// generated is a LevelGen level on a grid of rooms: the Synth, GoToSeq, PickupLoc
// and Boss levels.
func generated(size, rows, cols int, lg levelGen) babyLevel {
	l := maze(size, rows, cols, lg.mission)
	l.unblocking = lg.unblocking
	return l
}
