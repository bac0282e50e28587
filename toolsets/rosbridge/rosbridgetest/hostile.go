package rosbridgetest

// GraphExtras change the fake's graph as rosapi lists it: more topics and
// services (weird names, thousands of them), and rosapi services that do
// not exist (an older or partial rosapi). Extra topics are listed only,
// never published.
type GraphExtras struct {
	// Topics are listed by /rosapi/topics beside the robot's, by name with
	// their type (as sent: any text).
	Topics map[string]string
	// Services are listed by /rosapi/services with their type; a call
	// answers {success: true, message: "ok"}.
	Services map[string]string
	// Without are services (rosapi's among them) that do not exist.
	Without []string
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
