package rosbridgetest

import (
	"encoding/json"
	"fmt"
	"os"
)

// GraphExtras change the fake's graph as rosapi lists it: more topics and
// services (weird names, thousands of them), and rosapi services that do
// not exist (an older or partial rosapi). Extra topics are listed only,
// never published.
type GraphExtras struct {
	// Topics are listed by /rosapi/topics beside the robot's, by name with
	// their type (as sent: any text).
	Topics map[string]string `json:"topics,omitempty"`
	// Services are listed by /rosapi/services with their type; a call
	// answers {success: true, message: "ok"}, and is counted in
	// State.ServiceCalls.
	Services map[string]string `json:"services,omitempty"`
	// Without are services (rosapi's among them) that do not exist.
	Without []string `json:"without,omitempty"`
}

// ReadGraphExtras reads GraphExtras from a JSON file (the -graph flag): a
// robot's graph beside the fake's own, e.g. a UR's dashboard services or a
// Stretch's runstop, for a program such as `thea init --from-ros` to read.
func ReadGraphExtras(path string) (GraphExtras, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return GraphExtras{}, fmt.Errorf("rosbridgetest graph: %w", err)
	}
	var g GraphExtras
	if err := json.Unmarshal(b, &g); err != nil {
		return GraphExtras{}, fmt.Errorf("rosbridgetest graph %s: %w", path, err)
	}
	return g, nil
}

// apply adds and removes services. Called once, before serving.
func (g GraphExtras) apply(services map[string]service) {
	for name, typ := range g.Services {
		services[name] = service{typ: typ, handler: func(*Server, map[string]any) (any, error) {
			return map[string]any{"success": true, "message": "ok"}, nil
		}}
	}
	for _, name := range g.Without {
		delete(services, name)
	}
}
