package rosbridge

// StopDecl is the declared stop path (config.cue's #Stop): exactly one of
// Service, Action, Publish, bounded by Timeout.
type StopDecl struct {
	Timeout string           `json:"timeout"`
	Service *StopServiceDecl `json:"service,omitempty"`
	Action  *StopActionDecl  `json:"action,omitempty"`
	Publish *StopPublishDecl `json:"publish,omitempty"`
}

// StopServiceDecl calls a service to stop the robot.
type StopServiceDecl struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Request string `json:"request"`
	Success string `json:"success,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// StopActionDecl sends a goal to stop the robot.
type StopActionDecl struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Goal string `json:"goal"`
}

// StopPublishDecl publishes Message Count times at RateHz.
type StopPublishDecl struct {
	Topic   string  `json:"topic"`
	Type    string  `json:"type"`
	Message string  `json:"message,omitempty"`
	Count   int     `json:"count"`
	RateHz  float64 `json:"rate_hz"`
}
