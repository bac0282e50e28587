// Package callgate marks a call as one the engine's call path made: a
// physical tool's motion runs only under such a mark, so a tool handle
// held outside a session (a toolset started with engine.StartToolset, a
// body layer's toolset) cannot move the robot around its hooks. It is
// internal: a module that embeds Thea cannot make the mark, and inside
// this one only the engine makes it (a layering test checks that; the
// test suites of the body layer make it too, to drive motions directly).
package callgate

import "context"

type key struct{}

// Through is ctx marked as a call the engine's call path made (after the
// hook chain, for a physical tool).
func Through(ctx context.Context) context.Context { return context.WithValue(ctx, key{}, true) }

// Passed reports whether ctx carries the mark.
func Passed(ctx context.Context) bool {
	v, _ := ctx.Value(key{}).(bool)
	return v
}
