package toolsets

import "maps"

// Unavailable lists the back-end's tools the toolset left out at start (an
// inputSchema that refers outside itself), each with the reason; `thea
// validate --live` and start-up reports show them.
func (ts *MCPToolset) Unavailable() map[string]string { return maps.Clone(ts.unavailable) }

func (ts *MCPToolset) markUnavailable(tool string, err error) {
	if ts.unavailable == nil {
		ts.unavailable = map[string]string{}
	}
	ts.unavailable[tool] = err.Error()
}
