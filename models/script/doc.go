// Package script owns the "script" model provider: model turns replayed from a
// YAML or JSONL file (or built in Go), one queue per request purpose, so every
// engine test and demo runs offline and deterministic.
package script
