package metaworld

import "math"

// The tasks that handle a tool by its handle: assembly and disassembly of a nut on a
// peg, the hammer and the box lid. Their rewards scale by how upright the tool is.

// uprightness is 1 minus the distance of the observed quaternion o[7:11] from want,
// over scale, floored at 0 (the sources' reward_quat).
func uprightness(o [frameLen]float64, want [4]float64, scale float64) float64 {
	var sq float64
	for i := range 4 {
		d := o[7+i] - want[i]
		sq += d * d
	}
	return math.Max(1-math.Sqrt(sq)/scale, 0)
}

// nutQuat is the nut's observed orientation when it lies flat.
var nutQuat = [4]float64{0.707, 0, 0, 0.707}

// nutReset is assembly's and disassemble's reset: the nut and the peg apart; assembly's
// goal is the second part of the random vector, disassemble's 15 cm above the nut.
func nutReset(assemble bool) func(e *Env) {
	return func(e *Env) {
		r := e.resampleUntil(apart(0.1))
		e.objInit = r.first()
		if assemble {
			e.target = r.second()
			e.setObjXYZ(e.objInit)
			e.setBodyPos("peg", e.target.sub(vec3{0, 0, 0.05}))
			return
		}
		e.target = e.objInit.add(vec3{0, 0, 0.15})
		e.setBodyPos("peg", e.objInit.add(vec3{0, 0, 0.03}))
		e.setSitePos("pegTop", e.objInit.add(vec3{0, 0, 0.08}))
		e.forward()
		e.setObjXYZ(e.objInit)
	}
}

// wrench is the nut's grasp point with x snapped to the hand's within 1 cm.
func wrench(s *scene) vec3 {
	w := s.obj
	if math.Abs(w[0]-s.hand[0]) < 0.01 {
		w[0] = s.hand[0]
	}
	return w
}

func assemblyReward(e *Env, s *scene) stepInfo {
	center := e.sitePos("RoundNut")
	quat := uprightness(s.o, nutQuat, 0.4)
	grab := e.cagingReward(s.a, wrench(s), e.objInit, caging{objRadius: 0.015, padThresh: 0.02, reachRadius: 0.01, xzThresh: 0.01, effort: 1, medium: true})
	errv := e.target.sub(center)
	radius := math.Hypot(errv[0], errv[1])
	success := radius < 0.02 && errv[2] > 0
	thresh := 0.01
	if success {
		thresh = 0.02
	}
	height := 0.0
	if radius > thresh {
		height = 0.02*math.Log(radius-thresh) + 0.2
	}
	errv[2] = height - center[2]
	lifted := center[2] > 0.02 || radius < thresh
	inPlace := 0.1*b2f(lifted) + 0.9*longTail(errv.mul(vec3{1, 1, 3}).norm(), 0, 0.02, 0.4)
	reward := (2*grab + 6*inPlace) * quat
	if success {
		reward = 10
	}
	return stepInfo{reward: reward, success: b2f(success), near: quat, graspSuccess: b2f(grab >= 0.5), graspReward: grab, inPlace: inPlace}
}

func disassembleReward(e *Env, s *scene) stepInfo {
	center := e.sitePos("RoundNut")
	quat := uprightness(s.o, nutQuat, 0.4)
	grab := e.cagingReward(s.a, wrench(s), e.objInit, caging{objRadius: 0.015, padThresh: 0.02, reachRadius: 0.01, xzThresh: 0.01, effort: 1, high: true})
	errv := e.target.add(vec3{0, 0, 0.1}).sub(center)
	inPlace := 0.1*b2f(center[2] > 0.02) + 0.9*longTail(errv.norm(), 0, 0.02, 0.2)
	reward := (2*grab + 6*inPlace) * quat
	success := s.obj[2] > e.target[2]
	if success {
		reward = 10
	}
	return stepInfo{reward: reward, success: b2f(success), near: quat, graspSuccess: b2f(grab >= 0.5), graspReward: grab, inPlace: inPlace}
}

func hammerReset(e *Env) {
	e.setBodyPos("box", vec3{0.24, 0.85, 0})
	e.forward()
	e.target = e.sitePos("goal")
	e.objInit = e.randVec.first()
	e.setObjXYZ(e.objInit)
}

func hammerReward(e *Env, s *scene) stepInfo {
	head := s.obj.add(vec3{0.16, 0.06, 0})
	threshed := s.obj
	if math.Abs(s.obj[0]-s.hand[0]) < 0.07 {
		threshed[0] = s.hand[0]
	}
	quat := uprightness(s.o, [4]float64{1, 0, 0, 0}, 0.4)
	grab := e.cagingReward(s.a, threshed, e.objInit, caging{objRadius: 0.015, padThresh: 0.02, reachRadius: 0.01, xzThresh: 0.01, effort: 1, high: true})
	inPlace := 0.1*b2f(head[2] > 0.02) + 0.9*longTail(dist(head, e.target), 0, 0.02, 0.2)
	reward := (2*grab + 6*inPlace) * quat
	success := e.jointQpos("NailSlideJoint") > 0.09
	if success && reward > 5 {
		reward = 10
	}
	return stepInfo{reward: reward, success: b2f(success), near: quat, graspSuccess: b2f(grab >= 0.5), graspReward: grab, inPlace: inPlace}
}

func boxCloseReset(e *Env) {
	r := e.resampleUntil(apart(0.25))
	e.objInit = vec3{r[0], r[1], e.def.objInit[2]}
	e.target = r.second()
	e.setBodyPos("boxbody", vec3{e.target[0], e.target[1], e.bodyPos("boxbody")[2]})
	e.simulate(e.t.frameSkip)
	e.setObjXYZ(e.objInit)
}

func boxCloseReward(e *Env, s *scene) stepInfo {
	grab := clamp((clamp(s.a[3], -1, 1)+1)/2, 0, 1)
	quat := uprightness(s.o, nutQuat, 0.2)
	lid := s.obj.add(vec3{0, 0, 0.02})
	floor := floorHeight(distXY(s.hand, lid), 0.02, 0.04, 0.4)
	inPlace := longTail(dist(s.hand, lid), 0, 0.02, 0.5)
	ready := hamacher(aboveFloor(s.hand, floor), inPlace)
	lifted := 0.2*b2f(lid[2] > 0.04) + 0.8*longTail(e.target.sub(lid).mul(vec3{1, 1, 3}).norm(), 0, 0.05, 0.25)
	reward := 2*hamacher(grab, ready) + 8*lifted
	success := dist(s.obj, e.target) < 0.08
	if success {
		reward = 10
	}
	return stepInfo{reward: reward * quat, success: b2f(success), near: ready, graspSuccess: b2f(grab >= 0.5), graspReward: grab, inPlace: lifted}
}
