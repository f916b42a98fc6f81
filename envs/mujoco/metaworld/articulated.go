package metaworld

import "math"

// The tasks that work a mechanism fixed to the table: buttons, a dial, doors and
// locks, drawers, faucets, handles, a lever and windows.

// setObjScalar sets qpos 9 to 11 (as many as the model has) to v: the sources'
// _set_obj_xyz(v) with a scalar, which numpy broadcasts.
func (e *Env) setObjScalar(v float64) { e.setQpos(objQpos, true, v) }

// pressInfo is the info of the button, lock and coffee-button tasks: success within
// successAt of the goal, near within 0.05, grasp_success while the fingers are open,
// the reaching term as grasp_reward and the pressing term as in_place_reward.
func pressInfo(s *scene, reward, toTarget, successAt, tcpToObj, near, pressed float64) stepInfo {
	return stepInfo{reward: reward, success: b2f(toTarget <= successAt), near: b2f(tcpToObj <= 0.05),
		graspSuccess: b2f(s.open > 0), graspReward: near, inPlace: pressed, objToTarget: toTarget}
}

// pressReward is weight times the reaching and gripper term, plus press times the
// pressing term once the tool centre is within reach of the button.
func pressReward(weight, grip, near, tcpToObj, reach, press, pressed float64) float64 {
	reward := weight * hamacher(grip, near)
	if tcpToObj <= reach {
		reward += press * pressed
	}
	return reward
}

// topdownButtonReset places the button box; the goal is the hole under the button.
func topdownButtonReset(e *Env) {
	e.objInit = e.randVec.first()
	e.setBodyPos("box", e.objInit)
	e.forward()
	e.target = e.sitePos("hole")
	e.objToTargetInit = math.Abs(e.target[2] - e.sitePos("buttonStart")[2])
}

func topdownButtonReward(e *Env, s *scene) stepInfo {
	tcpToObj := dist(s.obj, s.tcp)
	toTarget := math.Abs(e.target[2] - s.obj[2])
	near := longTail(tcpToObj, 0, 0.01, dist(s.obj, e.initTCP))
	pressed := longTail(toTarget, 0, 0.005, e.objToTargetInit)
	return pressInfo(s, pressReward(5, 1-s.open, near, tcpToObj, 0.03, 5, pressed), toTarget, 0.024, tcpToObj, near, pressed)
}

// buttonReset is button-press's and button-press-wall's reset.
func buttonReset(e *Env) {
	e.objInit = e.randVec.first()
	e.setBodyPos("box", e.objInit)
	e.setObjScalar(0)
	e.target = e.sitePos("hole")
	e.objToTargetInit = math.Abs(e.target[1] - e.sitePos("buttonStart")[1])
}

func buttonReward(e *Env, s *scene) stepInfo {
	tcpToObj := dist(s.obj, s.tcp)
	near := longTail(tcpToObj, 0, 0.05, dist(s.obj, e.initTCP))
	toTarget := math.Abs(e.target[1] - s.obj[1])
	pressed := longTail(toTarget, 0, 0.005, e.objToTargetInit)
	return pressInfo(s, pressReward(2, math.Max(s.open, 0), near, tcpToObj, 0.05, 8, pressed), toTarget, 0.02, tcpToObj, near, pressed)
}

func buttonWallReward(e *Env, s *scene) stepInfo {
	tcpToObj := dist(s.obj, s.tcp)
	near := longTail(tcpToObj, 0, 0.01, dist(s.obj, e.initTCP))
	toTarget := math.Abs(e.target[1] - s.obj[1])
	pressed := longTail(toTarget, 0, 0.005, e.objToTargetInit)
	reward := 2 + 2*(1+s.open) + 4*pressed*pressed
	if tcpToObj > 0.07 {
		reward = 2 * hamacher((1-s.open)/2, near)
	}
	return pressInfo(s, reward, toTarget, 0.03, tcpToObj, near, pressed)
}

func coffeeButtonReset(e *Env) {
	e.objInit = e.randVec.first()
	e.setBodyPos("coffee_machine", e.objInit)
	e.setCoffeeMug(e.objInit.add(vec3{0, -0.22, 0}))
	e.target = e.objInit.add(vec3{0, -0.22 + 0.03, 0.3})
}

func coffeeButtonReward(e *Env, s *scene) stepInfo {
	tcpToObj := dist(s.obj, s.tcp)
	near := longTail(tcpToObj, 0, 0.05, dist(s.obj, e.initTCP))
	toTarget := math.Abs(e.target[1] - s.obj[1])
	pressed := longTail(toTarget, 0, 0.005, 0.03)
	return pressInfo(s, pressReward(2, math.Max(s.open, 0), near, tcpToObj, 0.05, 8, pressed), toTarget, 0.02, tcpToObj, near, pressed)
}

func dialReset(e *Env) {
	e.objInit = e.randVec.first()
	e.target = e.objInit.add(vec3{0, 0.03, 0.03})
	e.setBodyPos("dial", e.objInit)
	e.forward()
	e.handleInit = e.objPos().add(vec3{0.05, 0.02, 0.09})
}

// reachGripping is how close the tool centre is to a point at distance d with a
// Gaussian margin from init, combined with how far the gripper closes.
func reachGripping(d, bound, margin, grip float64) float64 {
	return hamacher(gaussian(d, 0, bound, margin), clamp(grip, 0, 1))
}

func dialReward(e *Env, s *scene) stepInfo {
	dial := e.objPos()
	push := dial.add(vec3{0.05, 0.02, 0.09})
	r := e.def.targetRadius
	toTarget := dist(dial, e.target)
	inPlace := longTail(toTarget, 0, r, math.Abs(dist(e.handleInit, e.target)-r))
	tcpToObj := dist(push, s.tcp)
	reach := reachGripping(tcpToObj, 0.005, math.Abs(dist(e.handleInit, e.initTCP)-0.005), s.a[3])
	return stepInfo{reward: 10 * hamacher(reach, inPlace), success: b2f(toTarget <= r), near: b2f(tcpToObj <= 0.01),
		graspSuccess: 1, graspReward: reach, inPlace: inPlace, objToTarget: toTarget}
}

// doorReset places the door with its joint at angle; the goal is off from the door.
func doorReset(off vec3, angle float64) func(e *Env) {
	return func(e *Env) {
		e.objInit = e.randVec.first()
		e.target = e.objInit.add(off)
		e.setBodyPos("door", e.objInit)
		e.setSitePos("goal", e.target)
		e.setObjScalar(angle)
	}
}

func doorCloseReward(e *Env, s *scene) stepInfo {
	toTarget := dist(s.obj, e.target)
	inPlace := gaussian(toTarget, 0, 0.05, dist(e.objInit, e.target))
	handInPlace := gaussian(dist(s.tcp, e.target), 0, 0.25*0.05, dist(e.def.handInit, s.obj)+0.1)
	reward := 3*handInPlace + 6*inPlace
	if toTarget < 0.05 {
		reward = 10
	}
	return stepInfo{reward: reward, success: b2f(toTarget <= 0.08), graspSuccess: 1, graspReward: 1,
		inPlace: handInPlace, objToTarget: toTarget}
}

// aboveFloor is 1 when the hand is above floor and falls off below it with a margin
// of half the floor's height.
func aboveFloor(hand vec3, floor float64) float64 {
	if hand[2] >= floor {
		return 1
	}
	return longTail(floor-hand[2], 0, 0.01, floor/2)
}

func doorOpenReward(e *Env, s *scene) stepInfo {
	theta := e.jointQpos("doorjoint")
	grab := (clamp(s.a[3], -1, 1) + 1) / 2
	door := s.obj.add(vec3{-0.05, 0, 0})
	floor := floorHeight(distXY(s.hand, door), 0.12, 0.04, 0.4)
	inPlace := longTail(s.hand.sub(door).sub(vec3{0.05, 0.03, -0.01}).norm(), 0, 0.06, 0.5)
	ready := hamacher(aboveFloor(s.hand, floor), inPlace)
	opened := 0.2*b2f(theta < -math.Pi/90) + 0.8*longTail(math.Pi/2+math.Pi/6+theta, 0, 0.5, math.Pi/3)
	reward := 2*hamacher(ready, grab) + 8*opened
	success := math.Abs(s.obj[0]-e.target[0]) <= 0.08
	if success {
		reward = 10
	}
	return stepInfo{reward: reward, success: b2f(success), near: ready, graspSuccess: b2f(grab >= 0.5),
		graspReward: grab, inPlace: opened}
}

func doorLockReset(e *Env) {
	e.setBodyPos("door", e.randVec.first())
	e.simulate(e.t.frameSkip)
	e.objInit = e.bodyPos("lock_link")
	e.target = e.objInit.add(vec3{0, -0.04, -0.1})
}

func doorLockReward(e *Env, s *scene) stepInfo {
	w := vec3{0.25, 1, 0.5}
	tcpToObj := distScaled(s.obj, e.bodyPos("leftpad"), w)
	toTarget := math.Abs(e.target[2] - s.obj[2])
	near := longTail(tcpToObj, 0, 0.01, distScaled(s.obj, e.initLeftPad, w))
	pressed := longTail(toTarget, 0, 0.005, 0.1)
	return pressInfo(s, 2*hamacher(math.Max(s.open, 0), near)+8*pressed, toTarget, 0.02, tcpToObj, near, pressed)
}

func doorUnlockReset(e *Env) {
	e.setBodyPos("door", e.randVec.first())
	e.setObjScalar(1.5708)
	e.objInit = e.bodyPos("lock_link")
	e.target = e.objInit.add(vec3{0.1, -0.04, 0})
}

// shoulder is the point beside the hand that pushes a lock or a lever.
func shoulder(hand vec3) vec3 { return hand.add(vec3{0, 0.055, 0.07}) }

func doorUnlockReward(e *Env, s *scene) stepInfo {
	w := vec3{0.25, 1, 0.5}
	toLock := distScaled(shoulder(s.hand), s.obj, w)
	ready := longTail(toLock, 0, 0.02, distScaled(shoulder(e.initTCP), e.objInit, w))
	toTarget := math.Abs(e.target[0] - s.obj[0])
	pushed := longTail(toTarget, 0, 0.005, 0.1)
	return pressInfo(s, 2*ready+8*pushed, toTarget, 0.02, toLock, ready, pushed)
}

func drawerCloseReset(e *Env) {
	e.maxDist = 0.15
	e.setBodyPos("drawer", e.randVec.first())
	e.target = e.randVec.first().add(vec3{0, -0.16, 0.09})
	e.setObjScalar(-e.maxDist)
	e.objInit = e.objPos()
}

func drawerCloseReward(e *Env, s *scene) stepInfo {
	r := e.def.targetRadius
	toTarget := dist(s.obj, e.target)
	inPlace := longTail(toTarget, 0, r, math.Abs(dist(e.objInit, e.target)-r))
	tcpToObj := dist(s.obj, s.tcp)
	reach := reachGripping(tcpToObj, 0.005, math.Abs(dist(e.objInit, e.initTCP)-0.005), s.a[3])
	reward := hamacher(reach, inPlace)
	if toTarget <= r+0.015 {
		reward = 1
	}
	return stepInfo{reward: 10 * reward, success: b2f(toTarget <= r+0.015), near: b2f(tcpToObj <= 0.01),
		graspSuccess: 1, graspReward: reach, inPlace: inPlace, objToTarget: toTarget}
}

func drawerOpenReset(e *Env) {
	e.maxDist = 0.2
	e.objInit = e.randVec.first()
	e.setBodyPos("drawer", e.objInit)
	e.target = e.objInit.add(vec3{0, -0.16 - e.maxDist, 0.09})
}

func drawerOpenReward(e *Env, s *scene) stepInfo {
	handleErr := dist(s.obj, e.target)
	opening := longTail(handleErr, 0, 0.02, e.maxDist)
	handleInit := e.target.add(vec3{0, e.maxDist, 0})
	w := vec3{3, 3, 1}
	gripErr := distScaled(s.obj, s.hand, w)
	cage := longTail(gripErr, 0, 0.01, distScaled(handleInit, e.initTCP, w))
	return stepInfo{reward: 5 * (cage + opening), success: b2f(handleErr <= 0.03), near: b2f(gripErr <= 0.03),
		graspSuccess: b2f(s.open > 0), graspReward: cage, inPlace: opening, objToTarget: handleErr}
}

// faucetReset places the faucet; the goal is off from its base.
func faucetReset(off vec3) func(e *Env) {
	return func(e *Env) {
		e.objInit = e.randVec.first()
		e.setBodyPos("faucetBase", e.objInit)
		e.target = e.objInit.add(off)
		e.forward()
	}
}

// faucetReward is faucet-open's (the handle measured 4 cm in and 3 cm up) and
// faucet-close's reward.
func faucetReward(open bool) func(e *Env, s *scene) stepInfo {
	return func(e *Env, s *scene) stepInfo {
		obj := s.obj
		if open {
			obj = obj.add(vec3{-0.04, 0, 0.03})
		}
		toTarget := dist(obj, e.target)
		inPlace := longTail(toTarget, 0, 0.07, math.Abs(dist(e.objInit, e.target)-0.07))
		tcpToObj := dist(obj, s.tcp)
		reach := gaussian(tcpToObj, 0, 0.01, math.Abs(dist(e.objInit, e.initTCP)-0.01))
		reward := (2*reach + 3*inPlace) * 2
		if toTarget <= 0.07 {
			reward = 10
		}
		return stepInfo{reward: reward, success: b2f(toTarget <= 0.07), near: b2f(tcpToObj <= 0.01),
			graspSuccess: 1, graspReward: reach, inPlace: inPlace, objToTarget: toTarget}
	}
}

func handlePressReset(e *Env) {
	e.objInit = e.randVec.first()
	e.setBodyPos("box", e.objInit)
	e.setObjScalar(-0.001)
	e.target = e.sitePos("goalPress")
	e.handleInit = e.objPos()
}

func handlePressReward(e *Env, s *scene) stepInfo {
	handle := e.sitePos("handleStart")
	r := e.def.targetRadius
	toTarget := math.Abs(handle[2] - e.target[2])
	inPlace := longTail(toTarget, 0, r, math.Abs(math.Abs(e.handleInit[2]-e.target[2])-r))
	tcpToObj := dist(handle, s.tcp)
	reach := longTail(tcpToObj, 0, 0.02, math.Abs(dist(e.handleInit, e.initTCP)-0.02))
	reward := hamacher(reach, inPlace)
	if toTarget <= r {
		reward = 1
	}
	return stepInfo{reward: 10 * reward, success: b2f(toTarget <= r), near: b2f(tcpToObj <= 0.05),
		graspSuccess: 1, graspReward: reach, inPlace: inPlace, objToTarget: toTarget}
}

// handlePullReset is handle-pull's (side=false) and handle-pull-side's reset.
func handlePullReset(side bool) func(e *Env) {
	return func(e *Env) {
		e.objInit = e.randVec.first()
		e.setBodyPos("box", e.objInit)
		e.setObjScalar(-0.1)
		e.target = e.sitePos("goalPull")
		if side {
			e.objInit = e.objPos()
		}
	}
}

func handlePullReward(side bool) func(e *Env, s *scene) stepInfo {
	return func(e *Env, s *scene) stepInfo {
		r := e.def.targetRadius
		toTarget, init := math.Abs(e.target[2]-s.obj[2]), math.Abs(e.target[2]-e.objInit[2])
		c := caging{objRadius: 0.022, padThresh: 0.05, reachRadius: 0.01, xzThresh: 0.01, effort: 1, high: true}
		success := r
		if side {
			toTarget, init = dist(s.obj, e.target), dist(e.objInit, e.target)
			c.objRadius, c.padThresh = 0.032, 0.06
			success = 0.08
		}
		inPlace := longTail(toTarget, 0, r, init)
		grasp := e.cagingReward(s.a, s.obj, e.objInit, c)
		reward := hamacher(grasp, inPlace)
		tcpToObj := dist(s.obj, s.tcp)
		if tcpToObj < 0.035 && s.open > 0 && s.obj[2]-0.01 > e.objInit[2] {
			reward += 1 + 5*inPlace
		}
		if toTarget < r {
			reward = 10
		}
		return stepInfo{reward: reward, success: b2f(toTarget <= success), near: b2f(tcpToObj <= 0.05),
			graspSuccess: b2f(s.open > 0 && s.obj[2]-0.03 > e.objInit[2]), graspReward: grasp, inPlace: inPlace, objToTarget: toTarget}
	}
}

func leverReset(e *Env) {
	e.objInit = e.randVec.first()
	e.setBodyPos("lever", e.objInit)
	e.leverInit = e.objInit.add(vec3{0.12, -0.2, 0.25})
	e.target = e.objInit.add(vec3{0.12, 0, 0.45})
}

func leverReward(e *Env, s *scene) stepInfo {
	w := vec3{4, 1, 4}
	toLever := distScaled(shoulder(s.hand), s.obj, w)
	ready := longTail(toLever, 0, 0.02, distScaled(shoulder(e.initTCP), e.leverInit, w))
	angleErr := math.Abs(-e.jointQpos("LeverAxis") - math.Pi/2)
	engaged := longTail(angleErr, 0, math.Pi/48, math.Pi/2-math.Pi/12)
	inPlace := longTail(dist(s.obj, e.target), 0, 0.04, dist(e.leverInit, e.target))
	return stepInfo{reward: 10 * hamacher(ready, inPlace), success: b2f(angleErr <= math.Pi/24), near: b2f(toLever < 0.03),
		graspSuccess: b2f(ready > 0.9), graspReward: ready, inPlace: engaged, objToTarget: toLever}
}

// windowReset is window-open's (slide 0, the goal 0.2 along x) and window-close's
// (slide 0.2, the goal at the window) reset.
func windowReset(open bool) func(e *Env) {
	return func(e *Env) {
		e.objInit = e.randVec.first()
		e.target = e.objInit
		if open {
			e.target = e.objInit.add(vec3{0.2, 0, 0})
		}
		e.setBodyPos("window", e.objInit)
		e.forward()
		e.windowHandleInit = e.objPos()
		slide := 0.0
		if !open {
			e.windowHandleInit = e.windowHandleInit.add(vec3{0.2, 0, 0})
			slide = 0.2
		}
		e.setJointQpos("window_slide", slide)
	}
}

func windowReward(open bool) func(e *Env, s *scene) stepInfo {
	return func(e *Env, s *scene) stepInfo {
		site, init, tol := "handleCloseStart", e.windowHandleInit[0], gaussian
		if open {
			site, init, tol = "handleOpenStart", e.objInit[0], longTail
		}
		handle := e.sitePos(site)
		r := e.def.targetRadius
		toTarget := math.Abs(handle[0] - e.target[0])
		inPlace := longTail(toTarget, 0, r, math.Abs(math.Abs(init-e.target[0])-r))
		tcpToObj := dist(handle, s.tcp)
		reach := tol(tcpToObj, 0, 0.02, math.Abs(dist(e.windowHandleInit, e.initTCP)-0.02))
		return stepInfo{reward: 10 * hamacher(reach, inPlace), success: b2f(toTarget <= r), near: b2f(tcpToObj <= 0.05),
			graspSuccess: 1, graspReward: reach, inPlace: inPlace, objToTarget: toTarget}
	}
}
