package anthropic

import "github.com/thea-harness/thea/engine/model/call"

// Config is an anthropic model section's own fields (schema.Model.Config).
type Config struct {
	call.Endpoint
	Wire Wire `json:"wire,omitzero"`
}

// Wire is the part of a model's request shape the Messages API lets a spec
// choose: it has one token-limit field and no model families with rules of
// their own, so only the temperature.
type Wire struct {
	// Temperature is "send" (the spec's, or 0) or "omit" (none: the
	// server's default).
	Temperature string `json:"temperature,omitempty"`
}

// configCUE is Config's fields, for the schema the build generates.
const configCUE = call.EndpointCUE + `// The sampling temperature, 0 to 1 on the Messages API; none set: 0.
temperature?: number & >=0 & <=1
// How requests are shaped: the Messages API has one token-limit field and
// no model families, so only whether a temperature is sent.
wire?: {
	// send: the spec's temperature (or 0); omit: none, the server's default.
	temperature?: "send" | "omit"
}
`
