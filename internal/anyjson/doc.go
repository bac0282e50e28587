// Package anyjson encodes the generic values tools return (map[string]any,
// []any, strings, numbers, booleans, nil) byte for byte as encoding/json
// does, without its reflection: the harness encodes a tool's result and its
// observation several times a turn, and encoding/json's map encoder
// allocates for every key and value. Values of any other type go through
// encoding/json itself.
package anyjson
