package rosbridge

// stop checks the declared stop against the running graph as a tool's
// call is checked (its service, action or topic, their types, the fields
// its exprs build and read), at rosbridge.stop. A publish's topic is not
// required to be on the graph (the toolset advertises it itself, as for a
// publish tool); its type is checked when it is. cmd_vel's legacy stop is
// checked at cmd_vel (topics).
func (lc *liveChecker) stop(sp *stopPlan) {
	if sp == nil || sp.legacy {
		return
	}
	d := sp.decl
	const at = "rosbridge.stop"
	switch {
	case d.Service != nil:
		s := d.Service
		lc.tool(at, ToolDecl{Service: &ServiceDecl{Name: s.Name, Type: s.Type, Request: s.Request, Success: s.Success, Reason: s.Reason}})
	case d.Action != nil:
		a := d.Action
		lc.tool(at, ToolDecl{Action: &ActionDecl{Name: a.Name, Type: a.Type, Goal: a.Goal}})
	case d.Publish != nil:
		p := d.Publish
		msg := p.Message
		if msg == "" {
			msg = "{linear: {x: 0.0, y: 0.0, z: 0.0}, angular: {x: 0.0, y: 0.0, z: 0.0}}"
		}
		lc.tool(at, ToolDecl{Publish: &PublishDecl{Topic: p.Topic, Type: p.Type, Message: msg}})
	}
}
