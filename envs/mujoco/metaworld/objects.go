package metaworld

import "math"

// What the tasks observe of their objects (the sources' _get_pos_objects and
// _get_quat_objects), as small constructors of behaviour.objects.

// noQuat is the zero quaternion tasks observe for objects whose orientation they hide.
var noQuat [4]float64

// bodyObs observes a body's position and orientation (w, x, y, z).
func bodyObs(body string) func(*Env, *objectsBuf) {
	return func(e *Env, b *objectsBuf) { b.put(e.bodyPos(body), e.bodyQuat(body)) }
}

// bodyGeomObs observes a body's position and a geom's orientation (x, y, z, w).
func bodyGeomObs(body, geom string) func(*Env, *objectsBuf) {
	return func(e *Env, b *objectsBuf) { b.put(e.bodyPos(body), e.geomQuat(geom)) }
}

// geomObs observes a geom's position and orientation.
func geomObs(geom string) func(*Env, *objectsBuf) {
	return func(e *Env, b *objectsBuf) { b.put(e.geomPos(geom), e.geomQuat(geom)) }
}

// siteObs observes a site's position moved by off, and no orientation.
func siteObs(site string, off vec3) func(*Env, *objectsBuf) {
	return func(e *Env, b *objectsBuf) { b.put(e.sitePos(site).add(off), noQuat) }
}

// siteBodyObs observes a site's position moved by off and a body's orientation.
func siteBodyObs(site string, off vec3, body string) func(*Env, *objectsBuf) {
	return func(e *Env, b *objectsBuf) { b.put(e.sitePos(site).add(off), e.bodyQuat(body)) }
}

// offsetBodyObs observes a body's position moved by off and its orientation (or none
// without quat).
func offsetBodyObs(body string, off vec3, quat bool) func(*Env, *objectsBuf) {
	return func(e *Env, b *objectsBuf) {
		q := noQuat
		if quat {
			q = e.bodyQuat(body)
		}
		b.put(e.bodyPos(body).add(off), q)
	}
}

// dialObs observes the point on the dial's rim its knob angle points at.
func dialObs(e *Env, b *objectsBuf) {
	a := e.jointQpos("knob_Joint_1")
	b.put(e.bodyPos("dial").add(vec3{math.Sin(a) * 0.05, -math.Cos(a) * 0.05, 0}), e.bodyQuat("dial"))
}

// stickObs observes the stick (orientation x, y, z, w) and the container's insertion
// point moved by off.
func stickObs(off vec3) func(*Env, *objectsBuf) {
	return func(e *Env, b *objectsBuf) {
		b.put(e.bodyPos("stick"), e.bodyQuatXYZW("stick"))
		b.put(e.sitePos("insertion").add(off), noQuat)
	}
}
