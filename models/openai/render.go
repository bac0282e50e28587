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
				head := "Image(s) returned by the %s call %s:"
				if notes(images) {
					head = "Beside the result of the %s call %s:"
				}
				toolImages = append(toolImages, llms.TextPart(fmt.Sprintf(head, rd.names.Wire(m.Name), m.ToolCallID)))
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

// toolParts splits a tool result: its first text (the result itself) is
// the tool message's content; what the harness wrote beside it (a refusal
// of the response's other calls, a consumed image's placeholder) and its
// images, each after its label, go in the user message after the tool
// messages, so the content stays the result alone.
func (rd *renderer) toolParts(i int, m *model.Message) (string, []llms.ContentPart, error) {
	var text strings.Builder
	var images []llms.ContentPart
	for k, p := range m.Parts {
		if k == 0 {
			text.WriteString(p.Text)
		} else if t := strings.TrimSpace(p.Text); t != "" {
			images = append(images, llms.TextPart(t))
		}
		if p.Image != nil {
			part, err := rd.image(p.Image)
			if err != nil {
				return "", nil, fmt.Errorf("message %d (tool result %s): %w", i, m.ToolCallID, err)
			}
			// The label travels with the image (a tool message holds text
			// only), never glued to the result's text.
			images = append(images, llms.TextPart(model.ImageLabel(p.Image)), part)
		}
	}
	return text.String(), images, nil
}

// notes reports whether a result's parts beside its content hold text
// other than its images' labels (one a picture).
func notes(parts []llms.ContentPart) bool {
	texts, images := 0, 0
	for _, p := range parts {
		switch p.(type) {
		case llms.TextContent:
			texts++
		case llms.ImageURLContent:
			images++
		}
	}
	return texts > images
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
