package scaffold

import (
	"fmt"
	"strings"
)

// The draft written as a spec: its sections in the order a reader reviews
// them, every guess marked REVIEW.

// toolset is the drafted rosbridge toolset's name.
const toolset = "robot"

// cue writes d as a spec file.
func (d *draft) cue() ([]byte, error) {
	w := &cueWriter{}
	w.comment("A spec drafted by `thea init --from-ros` from the ROS 2 graph at %s.", d.URL)
	w.comment("It validates and its safety hooks are wired, but it is a draft: every REVIEW line is a")
	w.comment("guess to check against the robot (names, units, which topics are safety-relevant,")
	w.comment("thresholds, which tools move it) before it drives anything unattended. Every physical")
	w.comment("tool asks for confirmation (hook review_confirm) until then.")
	for _, r := range d.Review {
		w.review("%s", r)
	}
	w.line("package " + strings.NewReplacer("-", "_").Replace(d.Name))
	w.blank()
	w.field("name", d.Name)
	w.field("description", "Drafted from the ROS 2 graph at "+d.URL+".")
	w.blank()
	w.review("a script model that only answers; set a real provider and name (docs/models.md).")
	w.field("model", inline("provider", "script", "script", "episode.yaml"))
	w.blank()
	d.embodiment(w)
	w.blank()
	if d.observes() {
		w.field("observation", inline("tool", toolset+".observe"))
		w.blank()
	}
	w.open("toolsets")
	d.toolset(w)
	w.field("core", inline("kind", "builtin"))
	w.close()
	w.blank()
	d.contracts(w)
	w.blank()
	d.hooks(w)
	w.blank()
	d.safety(w)
	w.blank()
	w.comment("Confirmations are asked at the terminal; with none (a daemon, CI) every one is refused.")
	w.field("user", inline("channel", "terminal"))
	w.field("memory", raw("consolidation: enabled: false"))
	if d.perceives() {
		w.comment("The Scene Graph keeps what the detectors saw and what the gripper holds, in the scene's frame;")
		w.comment("the model reads it as the Brief.")
		w.field("scene_graph", inline("enabled", true, "frame", d.Perception.Frame))
		w.field("loop", raw(`stages: ["task_notes", "observe", "scene_brief", "compact"]`))
	} else {
		w.field("scene_graph", raw("enabled: false"))
		w.field("loop", raw(`stages: ["task_notes", "observe", "compact"]`))
	}
	if tests := d.ruleTests(); len(tests) > 0 {
		w.blank()
		w.comment("Rule tests of the wired hooks, run by `thea validate`: keep them passing as you review.")
		w.line("tests: [")
		w.depth++
		for _, t := range tests {
			w.line(string(t) + ",")
		}
		w.depth--
		w.line("]")
	}
	return w.bytes()
}

func (d *draft) observes() bool {
	p := d.Perception
	return len(d.Cameras) > 0 || p.Pose != nil || d.Battery != "" || p.Joints != "" || p.EndEffector != nil || d.perceives()
}

// perceives reports whether the observation reads objects (detections or
// what is held), which the Scene Graph keeps.
func (d *draft) perceives() bool {
	return len(d.Perception.Detections) > 0 || d.Perception.Held != nil
}

func (d *draft) embodiment(w *cueWriter) {
	w.open("embodiment")
	w.field("name", d.Name)
	w.review("say what the body is and can do, for the model.")
	w.field("summary", "A robot behind rosbridge, drafted from its ROS 2 graph.")
	if len(d.Cameras) > 0 {
		w.review("each camera's frame, resolution and field of view are placeholders: measure them.")
		var cams []any
		for _, c := range d.Cameras {
			cams = append(cams, inline("name", c.Name, "frame", d.cameraFrame(c), "width", 640, "height", 480, "fov_deg", 60))
		}
		w.field("cameras", list(cams...))
	}
	w.field("frames", list(d.frames()...))
	w.review("limits chosen conservatively (a slow, wide berth): set them from the robot's data sheet and your risk assessment.")
	w.field("limits", inline("max_translation_m", 0.5, "max_rotation_deg", 90, "min_clearance_m", 0.5, "safety_margin_m", 0.2, "max_speed_mps", 0.2))
	w.close()
}

func (d *draft) toolset(w *cueWriter) {
	w.open(toolset)
	w.field("kind", "rosbridge")
	w.field("url", d.URL)
	w.field("timeout", "60s")
	w.field("start_timeout", "10s")
	w.comment("After a cancel, how long a motion may take to end before it is given up.")
	w.field("stop_grace", "2s")
	w.open("rosbridge")
	if d.TokenEnv != "" {
		w.field("token_env", d.TokenEnv)
	}
	w.field("cancel_timeout", "2s")
	if d.StopService != "" {
		w.comment("The stop path: called when a motion is given up and its cancel did not end it, on Close,")
		w.comment("and after a dropped socket (docs/bringing-up-a-robot.md, \"Declared stop\").")
		w.review("%s.", d.StopReview)
		kv := []any{"name", d.StopService, "type", d.StopServiceType}
		if d.StopRequest != "{}" {
			kv = append(kv, "request", d.StopRequest)
		}
		w.field("stop", inline("service", inline(kv...)))
	}
	if d.CmdVel != "" {
		if d.StopService == "" {
			w.comment("The stop path: a zero velocity here when a motion is given up.")
		} else {
			w.comment("A zero velocity here at the kill, besides the declared stop.")
		}
		w.field("cmd_vel", d.CmdVel)
	} else if d.StopService == "" {
		w.review("no stop path is declared: the graph has no Twist cmd_vel topic and no stop service whose stopping request the draft knows (a Trigger or Empty named stop or halt, or a SetBool whose name says data: true stops); a motion given up would have only its cancel, so the physical actions are disabled until you declare one (rosbridge.stop):")
		w.comment(`stop: service: {name: "/…", type: "std_srvs/srv/Trigger"}`)
	}
	for _, p := range d.Pending {
		for _, r := range p.Review {
			w.review("%s", r)
		}
		for _, l := range p.Lines {
			w.comment("%s", l)
		}
	}
	w.open("tools")
	for _, t := range d.Tools {
		d.tool(w, t)
	}
	w.close()
	d.observation(w)
	if d.Clearance != "" {
		w.comment("The clearance tool: per embodiment sector (front, left, back, right), the nearest return.")
		w.review("the sectors' angles default to the laser's x axis as the front: check the laser's mounting.")
		w.field("clearance", inline("topic", d.Clearance, "max_age", "1s"))
	}
	if len(d.Readings) > 0 {
		w.comment("Safety readings, taken after the model's decision and immediately before each physical call:")
		w.comment("a reading older than its max_age, or null, blocks the call.")
		w.review("a topic published only on change needs a longer max_age (or a heartbeat on the robot).")
		w.open("readings")
		w.open("sources")
		for _, r := range d.Readings {
			w.review("%s", r.Review)
			w.field(r.Name, inline("topic", r.Topic, "type", r.Type, "max_age", "500ms"))
		}
		w.close()
		w.close()
	}
	w.close()
	w.close()
}

func (d *draft) tool(w *cueWriter, t draftTool) {
	if t.Disabled {
		w.commented, w.commentFrom = true, w.depth
		defer func() { w.commented = false }()
	}
	w.open(t.Name)
	for _, r := range t.Review {
		w.review("%s", r)
	}
	w.review("describe what it does for the model, with units and preconditions.")
	w.field("description", t.Description)
	w.field("physical", t.Physical)
	if len(t.Args) > 0 {
		w.open("args")
		for _, a := range t.Args {
			argField(w, a.Name, a)
		}
		w.close()
	}
	if t.SuccessReview != "" {
		w.review("%s", t.SuccessReview)
	}
	if t.Action {
		kv := []any{"name", t.ROSName, "type", t.Type, "goal", t.Goal}
		if t.Success != "" {
			kv = append(kv, "success", t.Success)
		}
		if t.Reason != "" {
			kv = append(kv, "reason", t.Reason)
		}
		w.field("action", inline(kv...))
	} else {
		kv := []any{"name", t.ROSName, "type", t.Type}
		if t.Goal != "{}" {
			kv = append(kv, "request", t.Goal)
		}
		if t.Success != "" {
			kv = append(kv, "success", t.Success)
		}
		if t.Reason != "" {
			kv = append(kv, "reason", t.Reason)
		}
		w.field("service", inline(kv...))
	}
	w.close()
}

// argField writes an argument: a scalar on one line, an array or an
// object as a block with its items or properties.
func argField(w *cueWriter, key string, a draftArg) {
	var kv []any
	kv = append(kv, "type", a.Type)
	if a.Description != "" {
		kv = append(kv, "description", a.Description)
	}
	if a.Minimum != nil {
		kv = append(kv, "minimum", *a.Minimum)
	}
	if a.Optional {
		kv = append(kv, "optional", true)
	}
	if a.Type == "array" {
		kv = append(kv, "max_items", a.MaxItems)
	}
	structured := a.Items != nil && (a.Items.Type == "array" || a.Items.Type == "object") || len(a.Properties) > 0
	if !structured {
		if a.Items != nil {
			kv = append(kv, "items", inline(itemKV(*a.Items)...))
		}
		w.field(key, inline(kv...))
		return
	}
	w.open(key)
	for i := 0; i+1 < len(kv); i += 2 {
		w.field(kv[i].(string), kv[i+1])
	}
	if a.Items != nil {
		argField(w, "items", *a.Items)
	}
	if len(a.Properties) > 0 {
		w.open("properties")
		for _, p := range a.Properties {
			argField(w, p.Name, p)
		}
		w.close()
	}
	w.close()
}

// itemKV is a scalar element's type and bounds.
func itemKV(a draftArg) []any {
	kv := []any{"type", a.Type}
	if a.Minimum != nil {
		kv = append(kv, "minimum", *a.Minimum)
	}
	return kv
}

// contracts are the tools' contracts: physical ones tagged, the
// observation, clearance and readings tools hidden from the model.
func (d *draft) contracts(w *cueWriter) {
	w.open("tools")
	for _, t := range d.Tools {
		kv := []any{"physical", t.Physical}
		if t.BaseMotion {
			kv = append(kv, "tags", list("base_motion"))
		}
		if t.Disabled {
			w.comment("%s: %s", label(t.Name), inline(kv...))
			continue
		}
		w.field(t.Name, inline(kv...))
	}
	if d.observes() {
		w.field("observe", inline("hidden", true))
	}
	if d.Clearance != "" {
		w.field("clearance", inline("hidden", true))
	}
	if len(d.Readings) > 0 {
		w.field("readings", inline("hidden", true))
	}
	w.close()
}

// readingRule is the block rule of a reading and its reason.
func readingRule(r draftReading) (rule, reason string) {
	switch {
	case r.Bool && r.SafeWhen:
		return "!readings." + r.Name, fmt.Sprintf("%s reads false (not clear): no motion until it is.", r.Topic)
	case r.Bool:
		return "readings." + r.Name, fmt.Sprintf("%s reads true: no motion until it clears.", r.Topic)
	}
	return fmt.Sprintf("readings.%s < %.1f", r.Name, distanceThreshold), fmt.Sprintf("%s reads under %.1f m: wait until it is clear.", r.Topic, distanceThreshold)
}

func (d *draft) hooks(w *cueWriter) {
	w.comment("Pre-hooks run in order before every call: the safety blocks, then the review confirmation.")
	w.line("hooks: pre: [")
	w.depth++
	for _, r := range d.Readings {
		rule, reason := readingRule(r)
		w.line(string(inline("name", "reading_"+r.Name, "when", "tool.physical", "action", "block", "rule", rule, "reason", reason)) + ",")
	}
	if d.Clearance != "" {
		hook := string(inline("name", "boxed_in", "when", "'base_motion' in tool.tags", "action", "block",
			"rule", "!clearance.any_admissible", "reason", "No direction has enough clearance to move safely; ask the user for help.")) + ","
		if _, ok := d.firstTool(func(t draftTool) bool { return t.BaseMotion }); ok {
			w.line(hook)
		} else {
			// A hook on a tag no tool has does not validate, and guarding
			// every physical tool with a base's clearance would block an
			// arm whenever the cell is busy: the reading is drafted, the
			// gate is the integrator's to scope.
			w.review("no drafted tool moves a base (tag base_motion), so this clearance gate is left out: tag the tools it must guard, then uncomment.")
			w.comment("%s", hook)
		}
	}
	w.review("remove this hook once the spec is reviewed (or keep it: every motion is then confirmed).")
	w.line(string(inline("name", "review_confirm", "when", "tool.physical", "action", "confirm",
		"reason", "This spec is a draft: every physical call is confirmed until it is reviewed.")) + ",")
	w.depth--
	w.line("]")
}

func (d *draft) safety(w *cueWriter) {
	w.open("safety")
	if d.Clearance != "" {
		w.field("clearance_tool", toolset+".clearance")
	}
	if len(d.Readings) > 0 {
		var kv []any
		for _, r := range d.Readings {
			typ := "number"
			if r.Bool {
				typ = "bool"
			}
			kv = append(kv, r.Name, typ)
		}
		w.field("readings", inline("tool", toolset+".readings", "values", inline(kv...)))
	}
	w.field("max_turns", 30)
	w.close()
}
