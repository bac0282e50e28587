package openai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/tmc/langchaingo/llms"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/world"
)

// renderMessages maps the engine's messages onto langchaingo's. Tool messages
// carry no images on this wire: the images of a run of tool messages follow
// it in one user message (after all of them, since every tool call id must be
// answered right after the assistant message). Reasoning is never re-sent.
//
// Images are rendered as placeholder URLs that the request rewrite replaces
// with their data: URLs (see call.Inline). Tool names travel as the provider
// sees them (see model.WireToolName); each call's Extra is kept for the
// request rewrite to put back.
func (rd *renderer) renderMessages(msgs []model.Message) ([]llms.MessageContent, error) {
	out := make([]llms.MessageContent, 0, len(msgs)+1)
	var toolImages []llms.ContentPart
	flush := func() {
		if len(toolImages) > 0 {
			out = append(out, llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: toolImages})
			toolImages = nil
		}
	}
	for i := range msgs {
		m := &msgs[i]
		if m.Role != model.RoleTool {
			flush()
		}
		switch m.Role {
		case model.RoleSystem:
			out = append(out, llms.MessageContent{Role: llms.ChatMessageTypeSystem, Parts: []llms.ContentPart{llms.TextPart(m.Text())}})
		case model.RoleUser:
			parts, err := rd.userParts(i, m.Parts)
			if err != nil {
				return nil, err
			}
			out = append(out, llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: parts})
		case model.RoleAssistant:
			out = append(out, rd.assistant(m))
		case model.RoleTool:
			text, images, err := rd.toolParts(i, m)
			if err != nil {
				return nil, err
			}
			out = append(out, llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: m.ToolCallID, Name: m.Name, Content: text},
			}})
			if len(images) > 0 {
				toolImages = append(toolImages, llms.TextPart(fmt.Sprintf("Image(s) returned by the %s call %s:", rd.names.Wire(m.Name), m.ToolCallID)))
				toolImages = append(toolImages, images...)
			}
		default:
			return nil, fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
	}
	flush()
	return out, nil
}

func (rd *renderer) userParts(i int, ps []model.Part) ([]llms.ContentPart, error) {
	parts := make([]llms.ContentPart, 0, len(ps))
	for _, p := range ps {
		if p.Text != "" {
			parts = append(parts, llms.TextPart(p.Text))
		}
		if p.Image != nil {
			part, err := rd.image(p.Image)
			if err != nil {
				return nil, fmt.Errorf("message %d: %w", i, err)
			}
			parts = append(parts, part)
		}
	}
	if len(parts) == 0 {
		parts = append(parts, llms.TextPart(""))
	}
	return parts, nil
}

func (rd *renderer) assistant(m *model.Message) llms.MessageContent {
	parts := make([]llms.ContentPart, 0, 1+len(m.ToolCalls))
	if t := m.Text(); t != "" || len(m.ToolCalls) == 0 {
		parts = append(parts, llms.TextPart(t))
	}
	for _, c := range m.ToolCalls {
		args := c.RawArguments()
		if args == "" {
			args = "{}"
		}
		parts = append(parts, llms.ToolCall{ID: c.ID, Type: "function", FunctionCall: &llms.FunctionCall{Name: rd.names.Wire(c.Name), Arguments: args}})
		if len(c.Extra) > 0 {
			if rd.extras == nil {
				rd.extras = map[string]json.RawMessage{}
			}
			rd.extras[c.ID] = c.Extra
		}
	}
	return llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: parts}
}

func (rd *renderer) toolParts(i int, m *model.Message) (string, []llms.ContentPart, error) {
	var text strings.Builder
	var images []llms.ContentPart
	for _, p := range m.Parts {
		text.WriteString(p.Text)
		if p.Image != nil {
			part, err := rd.image(p.Image)
			if err != nil {
				return "", nil, fmt.Errorf("message %d (tool result %s): %w", i, m.ToolCallID, err)
			}
			images = append(images, part)
		}
	}
	return text.String(), images, nil
}

// renderer renders one request; its images and its calls' extra_content
// wait for the body rewrite.
type renderer struct {
	inline *call.Inline
	names  model.ToolNames
	// extras are the history's tool calls' extra_content, by call id.
	extras map[string]json.RawMessage
}

func newRenderer(names model.ToolNames) *renderer {
	return &renderer{inline: call.NewInline(), names: names}
}

// image is an image_url part whose data: URL the request rewrite fills in.
// langchaingo's BinaryContent is sent in a shape OpenAI rejects, so images go
// as image_url parts with a data: URL.
func (rd *renderer) image(img *world.Image) (llms.ContentPart, error) {
	mime, err := imageMIME(img)
	if err != nil {
		return nil, err
	}
	return llms.ImageURLPart(rd.inline.Add("data:"+mime+";base64,", img.Data)), nil
}

// imageMIME checks an image and names its type (sniffed when unset); the
// type goes into the body unescaped, so only token characters pass.
func imageMIME(img *world.Image) (string, error) {
	if len(img.Data) == 0 {
		return "", fmt.Errorf("image from camera %q has no data", img.Camera)
	}
	mime := img.MIME
	if mime == "" {
		mime = http.DetectContentType(img.Data)
	}
	if !strings.HasPrefix(mime, "image/") || strings.ContainsFunc(mime, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/+.-", r))
	}) {
		return "", fmt.Errorf("image from camera %q has MIME type %q, not an image", img.Camera, mime)
	}
	return mime, nil
}
