package metaworld

import "math"

// The tasks that move a free object to a goal: reaching, pushing, picking and placing,
// sliding, sweeping, inserting.

// resampleUntil draws the reset's random vector until ok accepts it (the sources'
// loops that keep the object and the goal apart).
func (e *Env) resampleUntil(ok func(r randVec) bool) randVec {
	r := e.randVec
	for !ok(r) {
		r = e.sampleRandVec()
	}
	return r
}

// apart accepts a random vector whose object and goal parts are at least d apart on
// the table.
func apart(d float64) func(randVec) bool {
	return func(r randVec) bool { return distXY(r.first(), r.second()) >= d }
}

// liftedTouch is the grasp_success most pick tasks report: both pads press on the
// object, the fingers are open a little, and the object is above its start by lift.
func (e *Env) liftedTouch(s *scene, lift float64) float64 {
	return b2f(e.touching() && s.open > 0 && s.obj[2]-lift > e.objInit[2])
}

// heldReward is the reward of the tasks that lift their object: the grasp and
// placement terms combined, a bonus once the object is held (1 plus 5 times the
// placement), and the full 10 at the goal.
func heldReward(grasp, inPlace float64, held, atGoal bool) float64 {
	reward := hamacher(grasp, inPlace)
	if held {
		reward += 1 + 5*inPlace
	}
	if atGoal {
		reward = 10
	}
	return reward
}

// reachPushPick is the reset shared by reach, push and pick-place (and their wall
// versions): object and goal at least 0.15 apart; the push tasks keep both at the
// object's height.
func reachPushPick(onTable bool, baseGeom bool) func(e *Env) {
	return func(e *Env) {
		z := e.bodyPos("obj")[2]
		if baseGeom {
			z = e.geomPos("objGeom")[2]
		}
		r := e.resampleUntil(apart(0.15))
		if onTable {
			e.target = vec3{r[3], r[4], z}
			e.objInit = vec3{r[0], r[1], z}
		} else {
			e.target = r.second()
			e.objInit = r.first()
		}
		e.setObjXYZ(e.objInit)
		e.setSitePos("goal", e.target)
	}
}

func reachReward(wall bool) func(e *Env, s *scene) stepInfo {
	return func(e *Env, s *scene) stepInfo {
		d := dist(s.tcp, e.target)
		inPlace := longTail(d, 0, 0.05, dist(e.def.handInit, e.target))
		if wall {
			return stepInfo{reward: 10 * inPlace, success: b2f(d <= 0.05), inPlace: inPlace, objToTarget: d}
		}
		return stepInfo{reward: 10 * inPlace, success: b2f(d <= 0.05), near: d, graspSuccess: 1, graspReward: d, inPlace: inPlace, objToTarget: d}
	}
}

// pushInfo is the info of the push tasks and shelf-place: success within success of
// the goal, near within 0.03, grasp_success when the pads press on the object and it
// is lifted 2 cm.
func (e *Env) pushInfo(s *scene, reward, tcpToObj, objToTarget, grasp, inPlace, success float64) stepInfo {
	return stepInfo{reward: reward, success: b2f(objToTarget <= success), near: b2f(tcpToObj <= 0.03),
		graspSuccess: e.liftedTouch(s, 0.02), graspReward: grasp, inPlace: inPlace, objToTarget: objToTarget}
}

func pushReward(e *Env, s *scene) stepInfo {
	tcpToObj, toTarget := dist(s.obj, s.tcp), dist(s.obj, e.target)
	r := e.def.targetRadius
	inPlace := longTail(toTarget, 0, r, dist(e.objInit, e.target))
	grasp := e.cagingReward(s.a, s.obj, e.objInit, caging{objRadius: 0.015, padThresh: 0.05, reachRadius: 0.01, xzThresh: 0.005, effort: 1, high: true})
	reward := 2 * grasp
	if tcpToObj < 0.02 && s.open > 0 {
		reward += 1 + reward + 5*inPlace
	}
	if toTarget < r {
		reward = 10
	}
	return e.pushInfo(s, reward, tcpToObj, toTarget, grasp, inPlace, r)
}

func pushWallReward(e *Env, s *scene) stepInfo {
	mid := vec3{-0.05, 0.77, s.obj[2]}
	tcpToObj, toTarget := dist(s.obj, s.tcp), dist(s.obj, e.target)
	part1 := longTail(distScaled(s.obj, mid, vec3{3, 1, 1}), 0, 0.05, distScaled(e.objInit, mid, vec3{3, 1, 1}))
	part2 := longTail(toTarget, 0, 0.05, dist(e.objInit, e.target))
	grasp := e.cagingReward(s.a, s.obj, e.objInit, caging{objRadius: 0.015, padThresh: 0.05, reachRadius: 0.01, xzThresh: 0.005, effort: 1, high: true})
	reward := 2 * grasp
	if tcpToObj < 0.02 && s.open > 0 {
		reward = 2*grasp + 1 + 4*part1
		if s.obj[1] > 0.75 {
			reward = 2*grasp + 1 + 4 + 3*part2
		}
	}
	if toTarget < 0.05 {
		reward = 10
	}
	return e.pushInfo(s, reward, tcpToObj, toTarget, grasp, part2, 0.07)
}

func pushBackReward(e *Env, s *scene) stepInfo {
	tcpToObj, toTarget := dist(s.obj, s.tcp), dist(s.obj, e.target)
	init := dist(e.objInit, e.target)
	r := e.def.targetRadius
	inPlace := longTail(toTarget, 0, r, init)
	grasp := e.sweepCaging(s.obj, 0.007, 0.003, 0.01)
	reward := hamacher(grasp, inPlace)
	if tcpToObj < 0.01 && s.open > 0 && s.open < 0.55 && init-toTarget > 0.01 {
		reward += 1 + 5*inPlace
	}
	if toTarget < r {
		reward = 10
	}
	return e.pushInfo(s, reward, tcpToObj, toTarget, grasp, inPlace, 0.07)
}

func pickPlaceReward(e *Env, s *scene) stepInfo {
	tcpToObj, toTarget := dist(s.obj, s.tcp), dist(s.obj, e.target)
	inPlace := longTail(toTarget, 0, 0.05, dist(e.objInit, e.target))
	grasp := e.pickPlaceCaging(s.a, s.obj)
	held := tcpToObj < 0.02 && s.open > 0 && s.obj[2]-0.01 > e.objInit[2]
	reward := heldReward(grasp, inPlace, held, toTarget < 0.05)
	return e.pushInfo(s, reward, tcpToObj, toTarget, grasp, inPlace, 0.07)
}

func pickPlaceWallReward(e *Env, s *scene) stepInfo {
	mid := vec3{e.target[0], 0.77, 0.25}
	tcpToObj, toTarget := dist(s.obj, s.tcp), dist(s.obj, e.target)
	part1 := longTail(distScaled(s.obj, mid, vec3{1, 1, 3}), 0, 0.05, distScaled(e.objInit, mid, vec3{1, 1, 3}))
	part2 := longTail(toTarget, 0, 0.05, dist(e.objInit, e.target))
	grasp := e.cagingReward(s.a, s.obj, e.objInit, caging{objRadius: 0.015, padThresh: 0.05, reachRadius: 0.01, xzThresh: 0.005, effort: 1})
	placed := hamacher(grasp, part1)
	reward := placed
	if tcpToObj < 0.02 && s.open > 0 && s.obj[2]-0.015 > e.objInit[2] {
		reward = placed + 1 + 4*part1
		if s.obj[1] > 0.75 {
			reward = placed + 1 + 4 + 3*part2
		}
	}
	if toTarget < 0.05 {
		reward = 10
	}
	return e.pushInfo(s, reward, tcpToObj, toTarget, grasp, part2, 0.07)
}

func pickOutOfHoleReset(e *Env) {
	r := e.resampleUntil(apart(0.15))
	e.objInit, e.target = r.first(), r.second()
	e.setObjXYZ(e.objInit)
	e.setSitePos("goal", e.target)
}

// floorHeight is the height the hand should stay above at distance radius from a
// hole or a lid: 0 within thresh, then scale*log(radius-thresh)+top.
func floorHeight(radius, thresh, scale, top float64) float64 {
	if radius <= thresh {
		return 0
	}
	return scale*math.Log(radius-thresh) + top
}

func pickOutOfHoleReward(e *Env, s *scene) stepInfo {
	toTarget, tcpToObj := dist(s.obj, e.target), dist(s.obj, s.tcp)
	floor := floorHeight(distXY(s.tcp, e.objInit), 0.03, 0.015, 0.15)
	aboveFloor := 1.0
	if s.tcp[2] < floor {
		aboveFloor = longTail(math.Max(floor-s.tcp[2], 0), 0, 0.01, 0.02)
	}
	grasp := e.cagingReward(s.a, s.obj, e.objInit, caging{objRadius: 0.015, padThresh: 0.02, reachRadius: 0.01, xzThresh: 0.03, effort: 0.1, high: true})
	inPlace := longTail(toTarget, 0, 0.02, dist(e.objInit, e.target))
	reward := hamacher(grasp, inPlace)
	graspOK := tcpToObj < 0.04 && s.obj[2]-0.02 > e.objInit[2] && s.open >= 0.33
	if graspOK {
		reward += 1 + 5*hamacher(inPlace, aboveFloor)
	}
	if toTarget < e.def.targetRadius {
		reward = 10
	}
	return stepInfo{reward: reward, success: b2f(toTarget <= 0.07), near: b2f(tcpToObj <= 0.03), graspSuccess: b2f(graspOK),
		graspReward: grasp, inPlace: inPlace, objToTarget: toTarget}
}

func binPickingReset(e *Env) {
	r := e.randVec
	e.objInit = vec3{r[0], r[1], e.bodyPos("obj")[2]}
	e.setObjXYZ(e.objInit)
	e.target = e.bodyPos("bin_goal")
}

func binPickingReward(e *Env, s *scene) stepInfo {
	toTarget := dist(s.obj, e.target)
	inPlace := longTail(toTarget, 0, e.def.targetRadius, dist(e.objInit, e.target))
	floor := math.Min(floorHeight(distXY(s.hand, e.objInit), 0.03, 0.02, 0.2), floorHeight(distXY(s.hand, e.target), 0.03, 0.02, 0.2))
	aboveFloor := 1.0
	if s.hand[2] < floor {
		aboveFloor = longTail(math.Max(floor-s.hand[2], 0), 0, 0.01, 0.05)
	}
	grasp := e.cagingReward(s.a, s.obj, e.objInit, caging{objRadius: 0.015, padThresh: 0.05, reachRadius: 0.01, xzThresh: 0.01, effort: 0.7, high: true})
	reward := hamacher(grasp, inPlace)
	near := dist(s.obj, s.hand) < 0.04
	graspOK := near && s.obj[2]-0.02 > e.objInit[2] && s.open >= 0.43
	if graspOK {
		reward += 1 + 5*hamacher(aboveFloor, inPlace)
	}
	if toTarget < e.def.targetRadius {
		reward = 10
	}
	return stepInfo{reward: reward, success: b2f(toTarget <= 0.05), near: b2f(near), graspSuccess: b2f(graspOK),
		graspReward: grasp, inPlace: inPlace, objToTarget: toTarget}
}

func shelfPlaceReset(e *Env) {
	r := e.resampleUntil(apart(0.1))
	shelf := vec3{r[3], r[4], r[5] - 0.3}
	e.objInit = vec3{r[0], r[1], e.bodyPos("obj")[2]}
	e.setBodyPos("shelf", shelf)
	e.forward()
	e.target = e.siteModelPos("goal").add(e.bodyModelPos("shelf"))
	e.setObjXYZ(e.objInit)
	e.setSitePos("goal", e.target)
}

func shelfPlaceReward(e *Env, s *scene) stepInfo {
	toTarget, tcpToObj := dist(s.obj, e.target), dist(s.obj, s.tcp)
	inPlace := longTail(toTarget, 0, 0.05, dist(e.objInit, e.target))
	grasp := e.cagingReward(s.a, s.obj, e.objInit, caging{objRadius: 0.02, padThresh: 0.05, reachRadius: 0.01, xzThresh: 0.01, effort: 1})
	reward := hamacher(grasp, inPlace)
	o, t := s.obj, e.target
	underShelf := 0 < o[2] && o[2] < 0.24 && t[0]-0.15 < o[0] && o[0] < t[0]+0.15
	if underShelf && t[1]-0.15 < o[1] && o[1] < t[1] {
		zScale := (0.24 - o[2]) / 0.24
		yScale := (o[1] - (t[1] - 0.15)) / 0.15
		inPlace = clamp(inPlace-hamacher(yScale, zScale), 0, 1)
	}
	if underShelf && o[1] > t[1] {
		inPlace = 0
	}
	if tcpToObj < 0.025 && s.open > 0 && o[2]-0.01 > e.objInit[2] {
		reward += 1 + 5*inPlace
	}
	if toTarget < 0.05 {
		reward = 10
	}
	return e.pushInfo(s, reward, tcpToObj, toTarget, grasp, inPlace, 0.07)
}

func sweepIntoReset(e *Env) {
	e.target = e.def.goalInit
	r := e.resampleUntil(func(r randVec) bool { return distXY(r.first(), e.target) >= 0.15 })
	e.objInit = vec3{r[0], r[1], e.bodyPos("obj")[2]}
	e.setObjXYZ(e.objInit)
	e.setSitePos("goal", e.target)
}

func sweepReset(e *Env) {
	r := e.randVec
	e.objInit = vec3{r[0], r[1], e.def.objInit[2]}
	e.target = e.def.goalInit
	e.target[1] = r[1]
	e.setObjXYZ(e.objInit)
	e.setSitePos("goal", e.target)
}

// sweepReward is sweep's (into=false) and sweep-into's reward; sweep-into measures the
// goal at the object's height.
func sweepReward(into bool) func(e *Env, s *scene) stepInfo {
	return func(e *Env, s *scene) stepInfo {
		target := e.target
		extra, xzThresh := 0.01, 0.005
		if into {
			target[2] = s.obj[2]
			extra, xzThresh = 0.005, 0.01
		}
		toTarget, tcpToObj := dist(s.obj, target), dist(s.obj, s.tcp)
		inPlace := longTail(toTarget, 0, 0.05, dist(e.objInit, target))
		grasp := e.sweepCaging(s.obj, 0.02, extra, xzThresh)
		reward := 2*grasp + 6*hamacher(grasp, inPlace)
		if toTarget < 0.05 {
			reward = 10
		}
		return stepInfo{reward: reward, success: b2f(toTarget <= 0.05), near: b2f(tcpToObj <= 0.03),
			graspSuccess: b2f(e.touching() && s.open > 0), graspReward: grasp, inPlace: inPlace, objToTarget: toTarget}
	}
}

func soccerReset(e *Env) {
	r := e.resampleUntil(apart(0.15))
	e.target = r.second()
	e.objInit = vec3{r[0], r[1], e.def.objInit[2]}
	e.setBodyPos("goal_whole", e.target)
	e.setObjXYZ(e.objInit)
	e.setSitePos("goal", e.target)
}

func soccerReward(e *Env, s *scene) stepInfo {
	tcpToObj := dist(s.obj, s.tcp)
	scaled := distScaled(s.obj, e.target, vec3{3, 1, 1})
	r := e.def.targetRadius
	inPlace := longTail(scaled, 0, r, distScaled(s.obj, e.objInit, vec3{3, 1, 1}))
	goalLine := e.target[1] - 0.1
	if s.obj[1] > goalLine && math.Abs(s.obj[0]-e.target[0]) > 0.10 {
		inPlace = clamp(inPlace-2*((s.obj[1]-goalLine)/(1-goalLine)), 0, 1)
	}
	grasp := e.sweepCaging(s.obj, 0.013, 0.01, 0.005)
	reward := 3*grasp + 6.5*inPlace
	if scaled < r {
		reward = 10
	}
	return e.pushInfo(s, reward, tcpToObj, dist(s.obj, e.target), grasp, inPlace, 0.07)
}

func handInsertReset(e *Env) {
	r := e.resampleUntil(apart(0.15))
	e.objInit = vec3{r[0], r[1], e.def.objInit[2]}
	e.target = r.second()
	e.setObjXYZ(e.objInit)
	e.setSitePos("goal", e.target)
}

func handInsertReward(e *Env, s *scene) stepInfo {
	toTarget, tcpToObj := dist(s.obj, e.target), dist(s.obj, s.tcp)
	r := e.def.targetRadius
	inPlace := longTail(toTarget, 0, r, dist(e.objInit, e.target))
	grasp := e.cagingReward(s.a, s.obj, e.objInit, caging{objRadius: 0.015, padThresh: 0.05, reachRadius: 0.01, xzThresh: 0.005, effort: 1, high: true})
	reward := hamacher(grasp, inPlace)
	if tcpToObj < 0.02 && s.open > 0 {
		reward += 1 + 7*inPlace
	}
	if toTarget < r {
		reward = 10
	}
	return e.pushInfo(s, reward, tcpToObj, toTarget, grasp, inPlace, 0.05)
}

func basketballReset(e *Env) {
	r := e.resampleUntil(apart(0.15))
	e.objInit = vec3{r[0], r[1], e.def.objInit[2]}
	e.setBodyPos("basket_goal", r.second())
	e.forward()
	e.target = e.sitePos("goal")
	e.setObjXYZ(e.objInit)
}

func basketballReward(e *Env, s *scene) stepInfo {
	target := e.target.withZ(0.3)
	toTarget := distScaled(s.obj, target, vec3{1, 1, 2})
	r := e.def.targetRadius
	inPlace := longTail(toTarget, 0, r, distScaled(e.objInit, target, vec3{1, 1, 2}))
	tcpToObj := dist(s.obj, s.tcp)
	grasp := e.cagingReward(s.a, s.obj, e.objInit, caging{objRadius: 0.025, padThresh: 0.06, reachRadius: 0.01, xzThresh: 0.005, effort: 1, high: true})
	holding := tcpToObj < 0.035 && s.open > 0 && s.obj[2]-0.01 > e.objInit[2]
	if holding {
		grasp = 1
	}
	return stepInfo{reward: heldReward(grasp, inPlace, holding, toTarget < r), success: b2f(toTarget <= r), near: b2f(tcpToObj <= 0.05),
		graspSuccess: b2f(s.open > 0 && s.obj[2]-0.03 > e.objInit[2]), graspReward: grasp, inPlace: inPlace, objToTarget: toTarget}
}

// coffeeMugReset is coffee-pull's and coffee-push's reset: the mug and its goal at
// least 0.15 apart, the machine behind the mug (pull) or behind the goal (push).
func coffeeMugReset(pull bool) func(e *Env) {
	return func(e *Env) {
		r := e.resampleUntil(apart(0.15))
		mug, goal := r.first(), r.second()
		e.objInit = mug
		e.setCoffeeMug(mug)
		machine := goal
		if pull {
			machine = mug
		}
		e.setBodyPos("coffee_machine", machine.add(vec3{0, 0.22, 0}))
		e.target = goal
	}
}

// setCoffeeMug places the coffee models' mug, whose free joint comes first in qpos.
func (e *Env) setCoffeeMug(p vec3) {
	copy(e.d.Qpos[:3], p[:])
	for i := objQpos; i < min(len(e.d.Qvel), objQpos+6); i++ {
		e.d.Qvel[i] = 0
	}
	e.forward()
}

func coffeeMugReward(e *Env, s *scene) stepInfo {
	scaled := distScaled(s.obj, e.target, vec3{2, 2, 1})
	inPlace := longTail(scaled, 0, 0.05, distScaled(e.objInit, e.target, vec3{2, 2, 1}))
	tcpToObj := dist(s.obj, s.tcp)
	grasp := e.cagingReward(s.a, s.obj, e.objInit, caging{objRadius: 0.02, padThresh: 0.05, reachRadius: 0.04, xzThresh: 0.05, effort: 0.7, medium: true})
	reward := hamacher(grasp, inPlace)
	if tcpToObj < 0.04 && s.open > 0 {
		reward += 1 + 5*inPlace
	}
	if scaled < 0.05 {
		reward = 10
	}
	toTarget := dist(s.obj, e.target)
	return stepInfo{reward: reward, success: b2f(toTarget <= 0.07), near: b2f(tcpToObj <= 0.03),
		graspSuccess: b2f(e.touching() && s.open > 0), graspReward: grasp, inPlace: inPlace, objToTarget: toTarget}
}

// plateSlideReset places the puck (by its two slide joints at qpos, qpos+1) and the
// goal; goalBody is the body that marks the goal, moved to the goal or the start.
func plateSlideReset(puck [2]float64, goalBody string, goalBodyAtStart bool) func(e *Env) {
	return func(e *Env) {
		r := e.randVec
		e.objInit, e.target = r.first(), r.second()
		switch {
		case goalBody != "" && goalBodyAtStart:
			e.setBodyPos(goalBody, e.objInit)
		case goalBody != "":
			e.setBodyPos(goalBody, e.target)
		}
		e.setQpos(objQpos, false, puck[:]...)
		e.setSitePos("goal", e.target)
	}
}

// plateSlideReward is the plate-slide tasks' reward; side is true for the three that
// are not plate-slide-v3 itself (margins 5 cm shorter, a different combination).
func plateSlideReward(side bool) func(e *Env, s *scene) stepInfo {
	return func(e *Env, s *scene) stepInfo {
		toTarget := dist(s.obj, e.target)
		inMargin, graspMargin := dist(e.objInit, e.target), dist(e.initTCP, e.objInit)
		if side {
			inMargin -= 0.05
			graspMargin -= 0.05
		}
		inPlace := longTail(toTarget, 0, 0.05, inMargin)
		tcpToObj := dist(s.tcp, s.obj)
		grasp := longTail(tcpToObj, 0, 0.05, graspMargin)
		reward := 8 * hamacher(grasp, inPlace)
		if side {
			reward = 1.5 * grasp
			if s.tcp[2] <= 0.03 && tcpToObj < 0.07 {
				reward = 2 + 7*inPlace
			}
		}
		if toTarget < 0.05 {
			reward = 10
		}
		return stepInfo{reward: reward, success: b2f(toTarget <= 0.07), near: b2f(tcpToObj <= 0.03),
			graspReward: grasp, inPlace: inPlace, objToTarget: toTarget}
	}
}

func pegInsertReset(e *Env) {
	r := e.resampleUntil(apart(0.1))
	e.objInit = r.first()
	box := r.second()
	e.pegHeadInit = e.sitePos("pegHead")
	e.setObjXYZ(e.objInit)
	e.setBodyPos("box", box)
	e.target = box.add(vec3{0.03, 0, 0.13})
	e.setSitePos("goal", e.target)
}

func pegInsertReward(e *Env, s *scene) stepInfo {
	head := e.sitePos("pegHead")
	tcpToObj := dist(s.obj, s.tcp)
	toTarget := distScaled(head, e.target, vec3{1, 2, 2})
	inPlace := longTail(toTarget, 0, e.def.targetRadius, distScaled(e.pegHeadInit, e.target, vec3{1, 2, 2}))
	box1 := rectPrism(head, e.sitePos("bottom_right_corner_collision_box_1"), e.sitePos("top_left_corner_collision_box_1"))
	box2 := rectPrism(head, e.sitePos("bottom_right_corner_collision_box_2"), e.sitePos("top_left_corner_collision_box_2"))
	inPlace = hamacher(inPlace, hamacher(box2, box1))
	grasp := e.cagingReward(s.a, s.obj, e.objInit, caging{objRadius: 0.0075, padThresh: 0.03, reachRadius: 0.01, xzThresh: 0.005, effort: 1, high: true})
	lifted := tcpToObj < 0.08 && s.open > 0 && s.obj[2]-0.01 > e.objInit[2]
	if lifted {
		grasp = 1
	}
	return stepInfo{reward: heldReward(grasp, inPlace, lifted, toTarget <= 0.07), success: b2f(toTarget <= 0.07), near: b2f(tcpToObj <= 0.03),
		graspSuccess: b2f(tcpToObj < 0.02 && s.open > 0 && s.obj[2]-0.01 > e.objInit[2]),
		graspReward:  grasp, inPlace: inPlace, objToTarget: toTarget}
}

func pegUnplugReset(e *Env) {
	box := e.randVec.first()
	e.setBodyPos("box", box)
	plug := box.add(vec3{0.044, 0, 0.131})
	q, v := e.d.Qpos, e.d.Qvel
	copy(q[objQpos:objQpos+3], plug[:])
	copy(q[objQpos+3:objQpos+7], []float64{1, 0, 0, 0})
	for i := objQpos; i < objQpos+3; i++ {
		v[i] = 0
	}
	e.forward()
	e.objInit = e.sitePos("pegEnd")
	e.target = plug.add(vec3{0.15, 0, 0})
	e.setSitePos("goal", e.target)
}

func pegUnplugReward(e *Env, s *scene) stepInfo {
	tcpToObj, toTarget := dist(s.obj, s.tcp), dist(s.obj, e.target)
	grasp := e.cagingReward(s.a, s.obj, e.objInit, caging{objRadius: 0.025, padThresh: 0.05, reachRadius: 0.01, xzThresh: 0.005, effort: 0.8, high: true})
	inPlace := longTail(toTarget, 0, 0.05, dist(e.objInit, e.target))
	graspOK := s.open > 0.5 && s.obj[0]-e.objInit[0] > 0.015
	reward := 2 * grasp
	if graspOK && tcpToObj < 0.035 {
		reward = 1 + 2*grasp + 5*inPlace
	}
	if toTarget <= 0.05 {
		reward = 10
	}
	return stepInfo{reward: reward, success: b2f(toTarget <= 0.07), near: b2f(tcpToObj <= 0.03), graspSuccess: b2f(graspOK),
		graspReward: grasp, inPlace: inPlace, objToTarget: toTarget}
}

// stickReset is stick-push's and stick-pull's reset: the stick and the container at
// least 0.1 apart; the container's handle joint at (0, handle).
func stickReset(handle float64, targetAtInsertion bool) func(e *Env) {
	return func(e *Env) {
		r := e.resampleUntil(apart(0.1))
		e.stickInit = vec3{r[0], r[1], 0.02}
		z := e.stickInit[2]
		if targetAtInsertion {
			z = e.sitePos("insertion")[2]
		}
		e.target = vec3{r[3], r[4], z}
		e.setObjXYZ(e.stickInit)
		e.setQpos(16, false, 0, handle)
		e.objInit = e.bodyPos("object")
		e.setSitePos("goal", e.target)
	}
}

func stickPushReward(e *Env, s *scene) stepInfo {
	stick := s.obj.add(vec3{0.015, 0, 0})
	container := vec3(s.o[11:14])
	tcpToStick := dist(stick, s.tcp)
	stickInPlace := longTail(dist(stick, e.target), 0, 0.12, dist(e.stickInit, e.target)-0.12)
	toTarget := dist(container, e.target)
	containerInPlace := longTail(toTarget, 0, 0.12, dist(e.objInit, e.target)-0.12)
	grasp := e.cagingReward(s.a, stick, e.stickInit, caging{objRadius: 0.04, padThresh: 0.05, reachRadius: 0.01, xzThresh: 0.01, effort: 1, high: true})
	reward := grasp
	held := tcpToStick < 0.02 && s.open > 0 && stick[2]-0.01 > e.stickInit[2]
	if held {
		grasp = 1
		reward = 2 + 5*stickInPlace + 3*containerInPlace
		if toTarget <= 0.12 {
			reward = 10
		}
	}
	return stepInfo{reward: reward, success: b2f(held && toTarget <= 0.12), near: b2f(tcpToStick <= 0.03),
		graspSuccess: b2f(e.touching() && s.open > 0 && stick[2]-0.01 > e.stickInit[2]),
		graspReward:  grasp, inPlace: stickInPlace, objToTarget: toTarget}
}

func stickPullReward(e *Env, s *scene) stepInfo {
	stick := s.obj
	handle := vec3(s.o[11:14])
	end := e.sitePos("stick_end")
	container, containerInit := handle.add(vec3{0.05, 0, 0}), e.objInit.add(vec3{0.05, 0, 0})
	tcpToStick := dist(stick, s.tcp)
	handleToTarget := dist(handle, e.target)
	w := vec3{1, 1, 2}
	stickInPlace := longTail(distScaled(stick, container, w), 0, 0.05, distScaled(e.stickInit, containerInit, w))
	stickInPlace2 := longTail(dist(stick, e.target), 0, 0.05, dist(e.stickInit, e.target))
	containerInPlace := longTail(dist(container, e.target), 0, 0.05, dist(e.objInit, e.target))
	grasp := e.cagingReward(s.a, stick, e.objInit, caging{objRadius: 0.014, padThresh: 0.05, reachRadius: 0.01, xzThresh: 0.01, effort: 1, high: true})
	held := tcpToStick < 0.02 && s.open > 0 && stick[2]-0.01 > e.stickInit[2]
	if held {
		grasp = 1
	}
	placed := hamacher(grasp, stickInPlace)
	reward := placed
	inserted := end[0] >= handle[0] && math.Abs(end[1]-handle[1]) <= 0.040 && math.Abs(end[2]-handle[2]) <= 0.060
	if held {
		reward = 1 + placed + 5*stickInPlace
		if inserted {
			reward = 1 + placed + 5 + 2*stickInPlace2 + containerInPlace
			if handleToTarget <= 0.12 {
				reward = 10
			}
		}
	}
	return stepInfo{reward: reward, success: b2f(handleToTarget <= 0.12 && inserted), near: b2f(tcpToStick <= 0.03),
		graspSuccess: b2f(e.touching() && s.open > 0 && stick[2]-0.02 > e.objInit[2]),
		graspReward:  grasp, inPlace: stickInPlace, objToTarget: handleToTarget}
}
