// Package model owns the model interface every provider adapter implements:
// requests of messages with text and image parts, tool definitions, and
// responses of text, reasoning and tool calls with usage; and what every
// adapter shares at the provider boundary: tool-name aliases, the report of
// each retried attempt, and the calibration of the harness's token estimate
// against the counts providers report. The providers themselves live under
// models/, one folder each.
package model
