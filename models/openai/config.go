package openai

import (
	"github.com/thea-harness/thea/engine/model/call"
)

// Config is an openai, ollama or google model section's own fields
// (schema.Model.Config): the API's endpoint and how requests are shaped.
type Config struct {
	call.Endpoint
	// Wire overrides how requests are shaped where the family table does
	// not know the model.
	Wire Wire `json:"wire,omitzero"`
}

// Wire is the spec's override of a model's request shape: for a model the
// family table cannot recognise by name (an Azure deployment, a router's
// alias). Empty fields leave the family's rule.
type Wire struct {
	// Family treats the model as one of the families ("openai_reasoning",
	// "gemini_3", "standard").
	Family string `json:"family,omitempty"`
	// TokenLimitField is the field max_tokens travels in: "max_tokens" or
	// "max_completion_tokens".
	TokenLimitField string `json:"token_limit_field,omitempty"`
	// Temperature is "send" (the spec's, or the family's default) or "omit"
	// (none: the server's default).
	Temperature string `json:"temperature,omitempty"`
}

// configCUE is Config's fields, for the schema the build generates.
const configCUE = call.EndpointCUE + `// None set: the model family's advice (0; 1.0 for Gemini 3; none for
// OpenAI's reasoning models). The model's name selects its family, whose
// request rules apply (see wire).
temperature?: number & >=0 & <=2
// How requests are shaped, for a model the family table does not recognise
// by name (an Azure deployment, a router's alias).
wire?: {
	// Treat the model as one of the families (openai_reasoning, gemini_3,
	// standard).
	family?: #NonEmpty
	// The field max_tokens travels in.
	token_limit_field?: "max_tokens" | "max_completion_tokens"
	// send: the spec's temperature (or the family's default); omit: none.
	temperature?: "send" | "omit"
}
`
