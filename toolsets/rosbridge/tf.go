package rosbridge

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// vec3 is a translation in metres.
type vec3 struct{ X, Y, Z float64 }

// quat is a unit quaternion (a rotation), ROS order x, y, z, w.
type quat struct{ X, Y, Z, W float64 }

// mul is the Hamilton product q·r: rotate by r, then by q.
func (q quat) mul(r quat) quat {
	return quat{
		X: q.W*r.X + q.X*r.W + q.Y*r.Z - q.Z*r.Y,
		Y: q.W*r.Y - q.X*r.Z + q.Y*r.W + q.Z*r.X,
		Z: q.W*r.Z + q.X*r.Y - q.Y*r.X + q.Z*r.W,
		W: q.W*r.W - q.X*r.X - q.Y*r.Y - q.Z*r.Z,
	}
}

// conj is the inverse of a unit quaternion.
func (q quat) conj() quat { return quat{-q.X, -q.Y, -q.Z, q.W} }

// rotate turns v by q: q·(v,0)·q⁻¹, written out (v + 2w(u×v) + 2u×(u×v)).
func (q quat) rotate(v vec3) vec3 {
	u := vec3{q.X, q.Y, q.Z}
	t := cross(u, v)
	t = vec3{2 * t.X, 2 * t.Y, 2 * t.Z}
	c := cross(u, t)
	return vec3{v.X + q.W*t.X + c.X, v.Y + q.W*t.Y + c.Y, v.Z + q.W*t.Z + c.Z}
}

func cross(a, b vec3) vec3 {
	return vec3{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X}
}

// normalized scales q to unit length; false for a zero or non-finite q
// (no rotation at all, which a transform must have).
func (q quat) normalized() (quat, bool) {
	n := math.Sqrt(q.X*q.X + q.Y*q.Y + q.Z*q.Z + q.W*q.W)
	if n < 1e-9 || math.IsNaN(n) || math.IsInf(n, 0) {
		return quat{}, false
	}
	return quat{q.X / n, q.Y / n, q.Z / n, q.W / n}, true
}

// rpyDeg is the rotation as roll, pitch, yaw in degrees (ZYX, as tf2 and
// the contract's end_effector use).
func (q quat) rpyDeg() (roll, pitch, yaw float64) {
	roll = math.Atan2(2*(q.W*q.X+q.Y*q.Z), 1-2*(q.X*q.X+q.Y*q.Y))
	sp := 2 * (q.W*q.Y - q.Z*q.X)
	pitch = math.Asin(math.Max(-1, math.Min(1, sp)))
	yaw = math.Atan2(2*(q.W*q.Z+q.X*q.Y), 1-2*(q.Y*q.Y+q.Z*q.Z))
	const deg = 180 / math.Pi
	return roll * deg, pitch * deg, yaw * deg
}

// transform is the pose of a child frame in its parent: a point p in the
// child frame is R·p + T in the parent frame.
type transform struct {
	T vec3
	R quat
}

var identity = transform{R: quat{W: 1}}

// then composes a (parent ← middle) with b (middle ← child) into
// parent ← child.
func (a transform) then(b transform) transform {
	t := a.R.rotate(b.T)
	return transform{T: vec3{a.T.X + t.X, a.T.Y + t.Y, a.T.Z + t.Z}, R: a.R.mul(b.R)}
}

// inverse is child ← parent: R⁻¹ and −R⁻¹·T.
func (a transform) inverse() transform {
	r := a.R.conj()
	t := r.rotate(a.T)
	return transform{T: vec3{-t.X, -t.Y, -t.Z}, R: r}
}

// apply maps a point of the child frame into the parent frame.
func (a transform) apply(p vec3) vec3 {
	t := a.R.rotate(p)
	return vec3{a.T.X + t.X, a.T.Y + t.Y, a.T.Z + t.Z}
}

// tfLink is one edge of the TF tree: the child's pose in parent, when it
// arrived, and whether it came on /tf_static (fixed, so never stale).
type tfLink struct {
	parent string
	tr     transform
	at     time.Time
	static bool
}

// tfTree is the TF tree by child frame (tf2's rule: one parent per frame).
type tfTree map[string]tfLink

// frameName is a frame id as tf2 compares it: without a leading slash.
func frameName(id string) string { return strings.TrimPrefix(id, "/") }

// lookup is parent ← child composed through the tree, with the time of
// its oldest non-static link (zero and static true when every link is
// static: a fixed transform is never stale). A lookup up the tree, down it
// or across it through a common ancestor all work; a frame with no path to
// the other is an error naming both.
func (t tfTree) lookup(parent, child string) (tr transform, at time.Time, static bool, err error) {
	parent, child = frameName(parent), frameName(child)
	// Every ancestor of parent (parent itself at depth 0) with anc ← parent;
	// chainP[i] is the link above the ancestor at depth i.
	up := map[string]transform{parent: identity}
	depth := map[string]int{parent: 0}
	var chainP []tfLink
	for f, acc := parent, identity; len(chainP) <= len(t); {
		l, ok := t[f]
		if !ok {
			break
		}
		if _, loop := up[l.parent]; loop {
			break // a cycle in untrusted data: stop where it closes
		}
		acc = l.tr.then(acc)
		chainP = append(chainP, l)
		up[l.parent], depth[l.parent] = acc, len(chainP)
		f = l.parent
	}
	// Walk up from child until an ancestor of parent.
	down := identity
	var chainC []tfLink
	for f := child; len(chainC) <= len(t); {
		if anc, ok := up[f]; ok {
			used := append(chainC, chainP[:depth[f]]...)
			return anc.inverse().then(down), oldest(used), staticOf(used), nil
		}
		l, ok := t[f]
		if !ok {
			break
		}
		down = l.tr.then(down)
		chainC = append(chainC, l)
		f = l.parent
	}
	return identity, time.Time{}, false, fmt.Errorf("no transform from %s to %s in the TF tree (%s)", parent, child, t.known())
}

// staticOf: every link is from /tf_static.
func staticOf(ls []tfLink) bool {
	for _, l := range ls {
		if !l.static {
			return false
		}
	}
	return true
}

// oldest is when the oldest non-static link arrived (zero: none).
func oldest(ls []tfLink) time.Time {
	var at time.Time
	for _, l := range ls {
		if !l.static && (at.IsZero() || l.at.Before(at)) {
			at = l.at
		}
	}
	return at
}

// known says which frames the tree has, briefly, for an error.
func (t tfTree) known() string {
	if len(t) == 0 {
		return "no transform received yet"
	}
	const max = 12
	var names []string
	for child, l := range t {
		if len(names) == max {
			names = append(names, "…")
			break
		}
		names = append(names, l.parent+"→"+child)
	}
	slices.Sort(names)
	return "it has " + strings.Join(names, ", ")
}
