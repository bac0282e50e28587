package mcpserve

import (
	"encoding/base64"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// callResult is one robot call's result: the tool message the acting model
// is told (the harness line of a clamp or rewrite, the envelope with the
// verdict's status and reason, its images), then the verdict as a line, and
// the task's report when the call ended it. next is the session's next
// decide request (nil when the task ended); the message is taken from it,
// else rebuilt from the call's result event. Everything here passed the
// session's redactor (requests and events are redacted at their source).
func callResult(id string, next *model.Request, evs []runlog.Event, ended *runlog.Report) *mcp.CallToolResult {
	ev := resultEvent(id, evs)
	res := &mcp.CallToolResult{}
	switch msg, ok := toolMessage(id, next); {
	case ok:
		res.Content = contents(msg.Parts)
		res.IsError = msg.IsError
	case ev != nil:
		res.Content, res.IsError = eventContents(ev)
	default:
		res.IsError = true
		res.Content = []mcp.Content{mcp.NewTextContent("not executed: the task ended before the call ran")}
	}
	if ev != nil && ev.Result != nil && ev.Result.Verdict != nil {
		v := ev.Result.Verdict
		line := "verdict: " + string(v.Status)
		if v.Reason != "" {
			line += ": " + v.Reason
		}
		res.Content = append(res.Content, mcp.NewTextContent(line))
	}
	if ended != nil {
		res.Content = append(res.Content, mcp.NewTextContent("The task ended: "+reportLine(*ended)))
	}
	return res
}

// toolMessage finds the result of call id in a decide request.
func toolMessage(id string, req *model.Request) (model.Message, bool) {
	if req == nil {
		return model.Message{}, false
	}
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if m := req.Messages[i]; m.Role == model.RoleTool && m.ToolCallID == id {
			return m, true
		}
	}
	return model.Message{}, false
}

// resultEvent finds the result event of call id.
func resultEvent(id string, evs []runlog.Event) *runlog.Event {
	for i := range evs {
		if evs[i].Kind == runlog.EventToolResult && evs[i].CallID == id {
			return &evs[i]
		}
	}
	return nil
}

// eventContents is a result as the model reads it, from its event: the
// harness line, then the envelope with the verdict cut to status and
// reason (its evidence is the evaluator's), then its images.
func eventContents(ev *runlog.Event) ([]mcp.Content, bool) {
	var out []mcp.Content
	if ev.Text != "" {
		out = append(out, mcp.NewTextContent(ev.Text))
	}
	env := runlog.Envelope{Success: false, Reason: "no result"}
	if ev.Result != nil {
		env = *ev.Result
	}
	if v := env.Verdict; v != nil {
		env.Verdict = &world.Verdict{Status: v.Status, Reason: v.Reason}
	}
	b, err := env.MarshalJSON()
	if err != nil {
		b = []byte(fmt.Sprintf(`{"success":false,"reason":"result could not be encoded: %v"}`, err))
	}
	out = append(out, mcp.NewTextContent(string(b)))
	for _, im := range ev.Images {
		out = append(out, imageContent(im)...)
	}
	return out, !env.Success
}

// contents turns a message's parts into MCP content.
func contents(parts []model.Part) []mcp.Content {
	out := make([]mcp.Content, 0, len(parts))
	for _, p := range parts {
		if p.Text != "" {
			out = append(out, mcp.NewTextContent(p.Text))
		}
		if p.Image != nil {
			out = append(out, imageContent(*p.Image)...)
		}
	}
	return out
}

// imageContent is an image as MCP content; an image without its bytes (a
// placeholder) is named instead.
func imageContent(im world.Image) []mcp.Content {
	if len(im.Data) == 0 {
		return []mcp.Content{mcp.NewTextContent(fmt.Sprintf("[image of camera %s not available]", im.Camera))}
	}
	mime := im.MIME
	if mime == "" {
		mime = "image/png"
	}
	return []mcp.Content{mcp.NewImageContent(base64.StdEncoding.EncodeToString(im.Data), mime)}
}

// reportLine is a task's report in one line: why it ended, and its text.
func reportLine(rep runlog.Report) string {
	s := fmt.Sprintf("%s after %d turns", rep.Reason, rep.Turns)
	if rep.Text != "" {
		s += ": " + rep.Text
	}
	if rep.RunDir != "" {
		s += fmt.Sprintf(" (run log: %s)", rep.RunDir)
	}
	return s
}

// modelText is a decision without a tool call: the task ends with text as
// its report.
func modelText(text string) model.Response { return model.Response{Text: text} }
