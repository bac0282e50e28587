// Package policies owns the hook chains: pre-execution hooks (allow, block,
// rewrite, clamp, confirm) and post-execution hooks (evaluate, note), rules
// compiled once with expr, fresh clearance for safety, the evaluator, the
// failure budget and loop detection, and the spec's rule tests.
package policies
