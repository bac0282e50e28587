package rosbridge

import (
	_ "embed"

	"github.com/thea-harness/thea/schema"
)

// Section is a rosbridge toolset's own fields beside every toolset's: the
// rosbridge_server url and the rosbridge block (tools, observation,
// clearance), decoded once at load against section.cue and config.cue,
// defaults filled in.
type Section struct {
	// URL is rosbridge_server's WebSocket address (ws:// or wss://).
	URL       string `json:"url"`
	Rosbridge Config `json:"rosbridge"`
}

// sectionCUE is the kind's fields and definitions for the schema the build
// generates: the body layer's, the url, and the rosbridge block.
//
//go:embed section.cue
var sectionCUE string

// kindCUE is the kind's CUE: its section and the rosbridge block's
// definitions.
func kindCUE() string { return sectionCUE + "\n" + configCUE }

// sectionOf is the rosbridge fields of a toolset; zero when the toolset's
// config is not the rosbridge kind's.
func sectionOf(ts schema.Toolset) Section {
	s, _ := ts.Config.(Section)
	return s
}
