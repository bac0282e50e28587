package scaffold

import (
	"fmt"
	"slices"
	"strings"

	"github.com/thea-harness/thea/toolsets/rosbridge/graph"
)

// Tools of a draft: one per action server and service rosapi could type
// and describe. Every drafted tool is physical until reviewed (a service
// may move the robot as well as an action), except a stop whose stopping
// request is known, which nothing may block or delay (rosstop.go); a
// service that could release an e-stop is not offered at all.

// baseWords name a tool that moves a mobile base (the clearance gate's).
var baseWords = []string{"navigate", "drive", "move_base", "dock", "follow_path", "spin", "back_up", "backup", "follow_waypoints"}

// action drafts an action server as a tool, or as a pending block when
// rosapi could not type or describe it.
func (d *draft) action(e graph.Endpoint, names *namer, ctx goalContext) {
	typ, ok := canonicalType(e.Type, "action")
	if !rosName.MatchString(e.Name) || !ok || e.Goal == nil {
		d.undescribed(e, "action", typ, ok)
		return
	}
	goal, args, review := buildGoal(e.Goal, ctx)
	if goal == "{}" && len(e.Goal.Fields) > 0 {
		d.unbuildable(e, "action", typ, "goal", review)
		return
	}
	t := draftTool{
		Name:        names.name(e.Name),
		Description: fmt.Sprintf("Send a goal to the %s action server (%s).", e.Name, typ),
		Action:      true, ROSName: e.Name, Type: typ, Args: args, Goal: goal, Physical: true,
		BaseMotion: strings.HasPrefix(typ, "nav2_msgs/") || hasWord(e.Name, baseWords),
		Review:     review,
	}
	if e.Response != nil {
		t.Success, t.Reason, t.SuccessReview = judgeResult(e.Response)
	}
	d.Tools = append(d.Tools, t)
}

// judgeResult drafts an action's success and reason exprs from its
// result's definition: a boolean success (or succeeded) field judges a
// succeeded goal (a skill server may answer SUCCEEDED with success:
// false); an integer error_code judges it as control_msgs does (0 is
// SUCCESSFUL), with a REVIEW; a text message, error_string or
// error_message gives the reason.
func judgeResult(m *graph.Message) (success, reason, review string) {
	for _, name := range []string{"success", "succeeded"} {
		if responseField(m, name, "bool", "boolean") {
			success = "result." + name
			break
		}
	}
	if success == "" && responseField(m, "error_code", "int8", "int16", "int32", "int64") {
		success = "result.error_code == 0"
		review = "a succeeded goal whose error_code is not 0 (control_msgs' SUCCESSFUL) is a failure: check the result's convention"
	}
	for _, name := range []string{"message", "error_string", "error_message", "reason"} {
		if responseField(m, name, "string") {
			reason = "result." + name
			break
		}
	}
	return success, reason, review
}

// service drafts a service as a tool; a Trigger-like response (success,
// message) judges the call.
func (d *draft) service(e graph.Endpoint, names *namer, ctx goalContext) {
	typ, ok := canonicalType(e.Type, "srv")
	class := classifyService(e.Name, typ)
	if rosName.MatchString(e.Name) && ok && class.role == roleWithheld {
		// Withheld even when rosapi could not describe it: no pending
		// block invites finishing it as a tool.
		d.withhold(e.Name, typ, class)
		return
	}
	if !rosName.MatchString(e.Name) || !ok || e.Goal == nil {
		d.undescribed(e, "service", typ, ok)
		return
	}
	request, args, review := buildGoal(e.Goal, ctx)
	if request == "{}" && len(e.Goal.Fields) > 0 {
		d.unbuildable(e, "service", typ, "request", review)
		return
	}
	t := draftTool{
		Name:        names.name(e.Name),
		Description: fmt.Sprintf("Call the %s service (%s).", e.Name, typ),
		ROSName:     e.Name, Type: typ, Args: args, Goal: request, Physical: true,
		BaseMotion: hasWord(e.Name, baseWords),
		Review:     review,
	}
	if e.Response != nil {
		if responseField(e.Response, "success", "bool", "boolean") {
			t.Success = "response.success"
		}
		if responseField(e.Response, "message", "string") {
			t.Reason = "response.message"
		}
	}
	switch {
	case class.role == roleStop:
		t.Physical, t.BaseMotion = false, false
		t.Review = append(t.Review, fmt.Sprintf("a stop (a %s named for stopping and nothing else): not physical, so no hook blocks or delays it (check that it only stops)", typ))
		d.stops = append(d.stops, stopCandidate{name: e.Name, typ: typ, class: class})
	case class.releases:
		t.Review = append(t.Review, "its name says it can start, release, unlock or switch something: physical, so every call is confirmed (keep it so)")
	default:
		t.Review = append(t.Review, "physical until reviewed: set physical: false (here and in its contract) if it never moves the robot")
	}
	d.Tools = append(d.Tools, t)
}

// responseField reports whether the response has the field with one of
// the types.
func responseField(m *graph.Message, name string, types ...string) bool {
	return slices.ContainsFunc(m.Fields, func(f graph.Field) bool {
		return f.Name == name && !f.Array && slices.Contains(types, f.Type)
	})
}

// undescribed notes an endpoint no tool could be drafted for; one whose
// name and type a spec can declare gets a commented-out tool to finish.
func (d *draft) undescribed(e graph.Endpoint, kind, typ string, typed bool) {
	why := e.Why
	switch {
	case !rosName.MatchString(e.Name):
		why = "its name cannot be declared"
	case !typed:
		why = fmt.Sprintf("rosapi gave no usable type (%q)", safeText(e.Type))
	}
	d.Review = append(d.Review, fmt.Sprintf("the %s %s was not drafted: %s", kind, safeText(e.Name), safeNote(why)))
	if rosName.MatchString(e.Name) && typed {
		field := map[string]string{"action": "goal", "service": "request"}[kind]
		d.Pending = append(d.Pending, pendingBlock{
			Review: []string{fmt.Sprintf("rosapi could not describe the %s of %s: write it by hand, then uncomment (inside tools):", field, e.Name)},
			Lines: []string{fmt.Sprintf("%s: {description: \"…\", physical: true, %s: {name: %q, type: %q, %s: \"{…}\"}}",
				newNamer().name(e.Name), kind, e.Name, typ, field)},
		})
	}
}

// unbuildable notes an endpoint whose goal or request no argument can set
// (only times and cut definitions): a tool sending an empty one would
// still move the robot, so it is a commented-out tool to finish by hand.
func (d *draft) unbuildable(e graph.Endpoint, kind, typ, field string, review []string) {
	d.Review = append(d.Review, fmt.Sprintf("the %s %s was not drafted: no field of its %s can be set from arguments", kind, e.Name, field))
	d.Pending = append(d.Pending, pendingBlock{
		Review: append([]string{fmt.Sprintf("write the %s of %s by hand (its fields: %s), then uncomment (inside tools):", field, e.Name, fieldNames(e.Goal))}, review...),
		Lines: []string{fmt.Sprintf("%s: {description: \"…\", physical: true, %s: {name: %q, type: %q, %s: \"{…}\"}}",
			newNamer().name(e.Name), kind, e.Name, typ, field)},
	})
}

// fieldNames lists a message's top-level fields for a note.
func fieldNames(m *graph.Message) string {
	var names []string
	for _, f := range m.Fields {
		names = append(names, f.Name)
	}
	return listed(names)
}
