// Package schema owns the spec language: the embedded CUE schema, completed by
// each registered component's own definition (a toolset kind's, a provider's,
// a hook action's, a user channel's), loading .cue, .yaml and .json specs,
// unification and defaults, positioned diagnostics, the typed plan (Spec,
// each component's section decoded once into its own type), and the JSON
// Schema export. It runs nothing. Its expr rules are written in the rule
// language of package rules: schema walks the spec's sections to find each
// rule (hooks, checks, verifier arguments, effects), compiles it once at load
// against its environment (CallEnv, CheckEnv) and the body's names, and
// places its errors at file positions.
// It holds no runtime values: the observations, clearances and verdicts its
// rules read are the world package's.
// Its subpackage reference turns the same schema into the Markdown spec reference.
package schema
