// Package schema owns the spec language: the embedded CUE schema, loading .cue,
// .yaml and .json specs, unification and defaults, positioned diagnostics, the
// typed plan (Spec), compiled expr rules, and the JSON Schema export. It runs nothing.
// Its subpackage reference turns the same schema into the Markdown spec reference.
package schema
