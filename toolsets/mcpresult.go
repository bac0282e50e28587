package toolsets

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// toEnvelope converts an MCP tool result. Text that parses as a JSON object is
// the value (its success and reason fields, when present, decide the
// envelope); other text goes under "text"; images become transient images; a
// run_id field becomes the envelope's RunID.
func toEnvelope(tool string, res *mcp.CallToolResult) runlog.Envelope {
	value := map[string]any{}
	var texts []string
	var images []world.Image
	if m, ok := res.StructuredContent.(map[string]any); ok {
		for k, v := range m {
			value[k] = v
		}
	}
	for _, c := range res.Content {
		switch c := c.(type) {
		case mcp.TextContent:
			var obj map[string]any
			if err := json.Unmarshal([]byte(c.Text), &obj); err == nil && obj != nil {
				for k, v := range obj {
					value[k] = v
				}
				continue
			}
			texts = append(texts, c.Text)
		case mcp.ImageContent:
			data, err := base64.StdEncoding.DecodeString(c.Data)
			if err != nil {
				return runlog.Failure(fmt.Sprintf("%s returned an image that is not valid base64: %v", tool, err))
			}
			images = append(images, world.Image{Camera: cameraName(c, len(images)+1), MIME: c.MIMEType, Data: data})
		default:
			// Never dropped silently: the model learns the result had more.
			if s := otherContent(c); s != "" {
				texts = append(texts, s)
			}
		}
	}
	if len(texts) > 0 {
		value["text"] = strings.Join(texts, "\n")
	}
	env := runlog.Envelope{Success: true, Images: images}
	if id, ok := value["run_id"].(string); ok {
		env.RunID = id
		delete(value, "run_id")
	}
	reason, _ := value["reason"].(string)
	delete(value, "reason")
	if ok, present := value["success"].(bool); present {
		env.Success = ok
		delete(value, "success")
	}
	if res.IsError {
		env.Success = false
		if reason == "" {
			reason = strings.Join(texts, "\n")
			delete(value, "text")
		}
	}
	if !env.Success {
		if reason == "" {
			reason = tool + " reported a failure without a reason"
		}
		env.Reason = reason
	}
	if len(value) > 0 {
		env.Value = value
	}
	return env
}

// cameraName reads the camera from the image's metadata ("camera" in _meta),
// else names it by position.
func cameraName(c mcp.ImageContent, n int) string {
	if c.Meta != nil {
		if s, ok := c.Meta.AdditionalFields["camera"].(string); ok && s != "" {
			return s
		}
	}
	return fmt.Sprintf("image-%d", n)
}

// otherContent renders content the harness does not pass on as such: a text
// resource's text, else a line naming what was left out.
func otherContent(c mcp.Content) string {
	switch c := c.(type) {
	case mcp.EmbeddedResource:
		switch r := c.Resource.(type) {
		case mcp.TextResourceContents:
			return r.Text
		case mcp.BlobResourceContents:
			return fmt.Sprintf("[binary resource %s (%s) not shown]", r.URI, r.MIMEType)
		}
		return "[a resource of an unsupported kind was not shown]"
	case mcp.AudioContent:
		return fmt.Sprintf("[audio (%s) not shown]", c.MIMEType)
	case mcp.ResourceLink:
		return fmt.Sprintf("[resource link %s: %s %s]", c.URI, c.Name, c.Description)
	case nil:
		return ""
	}
	return fmt.Sprintf("[content of type %T not shown]", c)
}

// notJSONText says why a result is not one JSON object (an observation
// must be): text content that is not a JSON object.
func notJSONText(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			t := bytes.TrimSpace([]byte(tc.Text))
			if len(t) == 0 || t[0] != '{' || !json.Valid(t) {
				return "its text is not a JSON object"
			}
		}
	}
	return ""
}

// rawResult renders a result's text and structured content as sent.
func rawResult(res *mcp.CallToolResult) string {
	var parts []string
	if res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	for _, c := range res.Content {
		switch c := c.(type) {
		case mcp.TextContent:
			parts = append(parts, c.Text)
		case mcp.ImageContent:
			parts = append(parts, fmt.Sprintf("[image %s]", c.MIMEType))
		default:
			if s := otherContent(c); s != "" {
				parts = append(parts, s)
			}
		}
	}
	if len(parts) == 0 {
		return "(empty)"
	}
	return strings.Join(parts, "\n")
}
