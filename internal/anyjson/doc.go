// Package anyjson encodes the generic values tools return (map[string]any,
// []any, strings, numbers, booleans, nil) byte for byte as encoding/json
// does, and decodes a JSON text into them as encoding/json does, without
// its reflection: the harness encodes a tool's result and its observation
// several times a turn and parses every call's arguments twice, and
// encoding/json allocates for every key and value on the way. Values of
// any other type are encoded by encoding/json itself.
package anyjson
