package rosbridge

import (
	_ "embed"

	"github.com/thea-harness/thea/schema"
)

// Section is a rosbridge toolset's own fields beside every toolset's: the
// rosbridge_server url and the rosbridge block (tools, observation,
// clearance), which config.cue checks in detail.
type Section struct {
	// URL is rosbridge_server's WebSocket address (ws:// or wss://).
	URL string `json:"url"`
	// Rosbridge is the rosbridge block, decoded by DecodeConfig.
	Rosbridge map[string]any `json:"rosbridge,omitempty"`
}

// sectionCUE is the kind's fields for the schema the build generates: the body
// layer's, the url, and the rosbridge block (open here; DecodeConfig
// checks it against config.cue at the user's positions).
//
//go:embed section.cue
var sectionCUE string

// sectionOf is the rosbridge fields of a toolset; zero when the toolset's
// config is not the rosbridge kind's.
func sectionOf(ts schema.Toolset) Section {
	s, _ := ts.Config.(Section)
	return s
}
