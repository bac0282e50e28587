package rosbridge

import (
	_ "embed"
	"fmt"

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

// sectionOf is the rosbridge fields of a toolset, decoded at load; a
// config of another kind is an error, never an empty section.
func sectionOf(ts schema.Toolset) (Section, error) {
	s, err := schema.ConfigAs[Section](ts.Config)
	if err != nil {
		return Section{}, fmt.Errorf("rosbridge: %w", err)
	}
	return s, nil
}
