package perception

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Vec3 is a translation in metres.
type Vec3 struct{ X, Y, Z float64 }

// Quat is a unit quaternion (a rotation), ROS order x, y, z, w.
type Quat struct{ X, Y, Z, W float64 }

// mul is the Hamilton product q·r: rotate by r, then by q.
func (q Quat) mul(r Quat) Quat {
	return Quat{
		X: q.W*r.X + q.X*r.W + q.Y*r.Z - q.Z*r.Y,
		Y: q.W*r.Y - q.X*r.Z + q.Y*r.W + q.Z*r.X,
		Z: q.W*r.Z + q.X*r.Y - q.Y*r.X + q.Z*r.W,
		W: q.W*r.W - q.X*r.X - q.Y*r.Y - q.Z*r.Z,
	}
}

// conj is the inverse of a unit quaternion.
func (q Quat) conj() Quat { return Quat{-q.X, -q.Y, -q.Z, q.W} }

// rotate turns v by q: q·(v,0)·q⁻¹, written out (v + 2w(u×v) + 2u×(u×v)).
func (q Quat) rotate(v Vec3) Vec3 {
	u := Vec3{q.X, q.Y, q.Z}
	t := cross(u, v)
	t = Vec3{2 * t.X, 2 * t.Y, 2 * t.Z}
	c := cross(u, t)
	return Vec3{v.X + q.W*t.X + c.X, v.Y + q.W*t.Y + c.Y, v.Z + q.W*t.Z + c.Z}
}

func cross(a, b Vec3) Vec3 {
	return Vec3{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X}
}

// Normalized scales q to unit length; false for a zero or non-finite q
// (no rotation at all, which a transform must have).
func (q Quat) Normalized() (Quat, bool) {
	n := math.Sqrt(q.X*q.X + q.Y*q.Y + q.Z*q.Z + q.W*q.W)
	if n < 1e-9 || math.IsNaN(n) || math.IsInf(n, 0) {
		return Quat{}, false
	}
	return Quat{q.X / n, q.Y / n, q.Z / n, q.W / n}, true
}

// RPYDeg is the rotation as roll, pitch, yaw in degrees (ZYX, as tf2 and
// the contract's end_effector use).
func (q Quat) RPYDeg() (roll, pitch, yaw float64) {
	roll = math.Atan2(2*(q.W*q.X+q.Y*q.Z), 1-2*(q.X*q.X+q.Y*q.Y))
	sp := 2 * (q.W*q.Y - q.Z*q.X)
	pitch = math.Asin(math.Max(-1, math.Min(1, sp)))
	yaw = math.Atan2(2*(q.W*q.Z+q.X*q.Y), 1-2*(q.Y*q.Y+q.Z*q.Z))
	const deg = 180 / math.Pi
	return roll * deg, pitch * deg, yaw * deg
}

// Transform is the pose of a child frame in its parent: a point p in the
// child frame is R·p + T in the parent frame.
type Transform struct {
	T Vec3
	R Quat
}

var Identity = Transform{R: Quat{W: 1}}

// Then composes a (parent ← middle) with b (middle ← child) into
// parent ← child.
func (a Transform) Then(b Transform) Transform {
	t := a.R.rotate(b.T)
	return Transform{T: Vec3{a.T.X + t.X, a.T.Y + t.Y, a.T.Z + t.Z}, R: a.R.mul(b.R)}
}

// Inverse is child ← parent: R⁻¹ and −R⁻¹·T.
func (a Transform) Inverse() Transform {
	r := a.R.conj()
	t := r.rotate(a.T)
	return Transform{T: Vec3{-t.X, -t.Y, -t.Z}, R: r}
}

// Apply maps a point of the child frame into the parent frame.
func (a Transform) Apply(p Vec3) Vec3 {
	t := a.R.rotate(p)
	return Vec3{a.T.X + t.X, a.T.Y + t.Y, a.T.Z + t.Z}
}

// Link is one edge of the TF tree: the child's pose in parent, when it
// arrived, and whether it came on /tf_static (fixed, so never stale).
type Link struct {
	Parent    string
	Transform Transform
	At        time.Time
	Static    bool
}

// Tree is the TF tree by child frame (tf2's rule: one parent per frame).
type Tree map[string]Link

// FrameName is a frame id as tf2 compares it: without a leading slash.
func FrameName(id string) string { return strings.TrimPrefix(id, "/") }

// Lookup is parent ← child composed through the tree, with the time of
// its oldest non-static link (zero and static true when every link is
// static: a fixed transform is never stale). A lookup up the tree, down it
// or across it through a common ancestor all work; a frame with no path to
// the other is an error naming both.
func (t Tree) Lookup(parent, child string) (tr Transform, at time.Time, static bool, err error) {
	parent, child = FrameName(parent), FrameName(child)
	// Every ancestor of parent (parent itself at depth 0) with anc ← parent;
	// chainP[i] is the link above the ancestor at depth i.
	up := map[string]Transform{parent: Identity}
	depth := map[string]int{parent: 0}
	var chainP []Link
	for f, acc := parent, Identity; len(chainP) <= len(t); {
		l, ok := t[f]
		if !ok {
			break
		}
		if _, loop := up[l.Parent]; loop {
			break // a cycle in untrusted data: stop where it closes
		}
		acc = l.Transform.Then(acc)
		chainP = append(chainP, l)
		up[l.Parent], depth[l.Parent] = acc, len(chainP)
		f = l.Parent
	}
	// Walk up from child until an ancestor of parent.
	down := Identity
	var chainC []Link
	for f := child; len(chainC) <= len(t); {
		if anc, ok := up[f]; ok {
			used := append(chainC, chainP[:depth[f]]...)
			return anc.Inverse().Then(down), oldest(used), staticOf(used), nil
		}
		l, ok := t[f]
		if !ok {
			break
		}
		down = l.Transform.Then(down)
		chainC = append(chainC, l)
		f = l.Parent
	}
	return Identity, time.Time{}, false, fmt.Errorf("no transform from %s to %s in the TF tree (%s)", parent, child, t.known())
}

// staticOf: every link is from /tf_static.
func staticOf(ls []Link) bool {
	for _, l := range ls {
		if !l.Static {
			return false
		}
	}
	return true
}

// oldest is when the oldest non-static link arrived (zero: none).
func oldest(ls []Link) time.Time {
	var at time.Time
	for _, l := range ls {
		if !l.Static && (at.IsZero() || l.At.Before(at)) {
			at = l.At
		}
	}
	return at
}

// known says which frames the tree has, briefly, for an error.
func (t Tree) known() string {
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
		names = append(names, l.Parent+"→"+child)
	}
	slices.Sort(names)
	return "it has " + strings.Join(names, ", ")
}
