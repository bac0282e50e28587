// Package reference generates the spec reference (docs/reference/spec.md)
// from the embedded CUE schema and a component catalog, so the manual's
// list of fields, types, defaults and registered names cannot drift from
// what the loader accepts. It reads the schema's source for doc comments
// and types as written; it imports only schema.
package reference
