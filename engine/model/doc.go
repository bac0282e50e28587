// Package model owns the model interface every provider adapter implements:
// requests of messages with text and image parts, tool definitions, and
// responses of text, reasoning and tool calls with usage; and what every
// adapter shares at the provider boundary: tool-name aliases and the report
// of each retried attempt.
package model
