// Package policies owns the hook chains: pre-execution hooks (allow, block,
// rewrite, clamp, confirm) and post-execution hooks (evaluate, note) that
// run the rules schema compiled at load, a fresh clearance reading before a
// motion, the evaluator (post-conditions checked by expr or judged by a
// model), and the spec's rule tests. Its readings, evidence and verifiers
// are reads through engine.ToolReader, which refuses a physical tool: the
// policy cannot run a motion itself. The failure budget and loop detection
// are the engine's (the fixed turn's record), applied whatever the policy.
package policies
