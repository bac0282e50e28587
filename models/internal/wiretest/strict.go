package wiretest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Strict servers refuse what the real APIs refuse, in the provider's own
// error shape, and pass every other request to the reply they wrap. The
// rules are those of the providers' API references: OpenAI's reasoning
// models (o-series, gpt-5) refuse max_tokens and any temperature but 1;
// OpenAI and Anthropic refuse a tool name outside ^[a-zA-Z0-9_-]{1,64}$;
// Gemini 3 refuses a history function call without the thought signature it
// came with.

// validName is the providers' tool-name rule, written out on its own so the
// fake does not share the code it checks.
func validName(s string) bool {
	if len(s) < 1 || len(s) > 64 {
		return false
	}
	return strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == ""
}

// OpenAIRules says what a strict OpenAI-format server serves.
type OpenAIRules struct {
	// Reasoning reports whether the request's model is a reasoning model;
	// nil decides by name as OpenAI serves them (o1…o9 and gpt-5 ids, after
	// a router's "vendor/" prefix). A proxy serving a reasoning model under
	// another name (an Azure deployment) sets it.
	Reasoning func(model string) bool
}

func reasoningByName(model string) bool {
	id := strings.ToLower(model[strings.LastIndex(model, "/")+1:])
	return strings.HasPrefix(id, "gpt-5") || len(id) >= 2 && id[0] == 'o' && id[1] >= '1' && id[1] <= '9'
}

// openAIError writes OpenAI's 400 with the blamed field in error.param.
func openAIError(w http.ResponseWriter, param, code, msg string) {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": msg, "type": "invalid_request_error", "param": param, "code": code}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(b)
}

// StrictOpenAI refuses, as OpenAI's chat completions does: a tool name (in
// tools or in a history call) outside the pattern; on a reasoning model,
// max_tokens and a temperature other than 1.
func StrictOpenAI(rules OpenAIRules, next http.HandlerFunc) http.HandlerFunc {
	if rules.Reasoning == nil {
		rules.Reasoning = reasoningByName
	}
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		var req struct {
			Model       string          `json:"model"`
			MaxTokens   json.RawMessage `json:"max_tokens"`
			Temperature *float64        `json:"temperature"`
			Tools       []struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tools"`
			Messages []struct {
				ToolCalls []struct {
					Function struct {
						Name string `json:"name"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			openAIError(w, "", "invalid_json", "We could not parse the JSON body of your request: "+err.Error())
			return
		}
		for i, t := range req.Tools {
			if !validName(t.Function.Name) {
				openAIError(w, fmt.Sprintf("tools[%d].function.name", i), "invalid_value", fmt.Sprintf(
					"Invalid 'tools[%d].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.", i))
				return
			}
		}
		for i, m := range req.Messages {
			for j, c := range m.ToolCalls {
				if !validName(c.Function.Name) {
					p := fmt.Sprintf("messages[%d].tool_calls[%d].function.name", i, j)
					openAIError(w, p, "invalid_value", fmt.Sprintf("Invalid '%s': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.", p))
					return
				}
			}
		}
		if rules.Reasoning(req.Model) {
			if len(req.MaxTokens) > 0 {
				openAIError(w, "max_tokens", "unsupported_parameter",
					"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.")
				return
			}
			if t := req.Temperature; t != nil && *t != 1 {
				openAIError(w, "temperature", "unsupported_value", fmt.Sprintf(
					"Unsupported value: 'temperature' does not support %v with this model. Only the default (1) value is supported.", *t))
				return
			}
		}
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		next(w, r)
	}
}

// StrictAnthropic refuses, as the Messages API does, a tool definition
// whose name is outside the pattern.
func StrictAnthropic(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		var req struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		_ = json.Unmarshal(body, &req) // a body that is not JSON passes to next
		for i, t := range req.Tools {
			if !validName(t.Name) {
				b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error",
					"message": fmt.Sprintf("tools.%d.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'", i)}})
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = w.Write(b)
				return
			}
		}
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		next(w, r)
	}
}

// Gemini3 is Gemini 3 on the OpenAI-compatible endpoint, as strict as
// Google's: the first tool call of each answer carries a thought signature
// in extra_content.google, and a request whose history holds a call without
// the signature it came with is refused with 400 (Google's wording and
// shape). Safe for concurrent use.
type Gemini3 struct {
	mu     sync.Mutex
	issued map[string]string // call id → signature
	// Temperatures are the temperature of each request (nil: none sent).
	Temperatures []*float64
}

// NewGemini3 starts a fake with no signatures issued.
func NewGemini3() *Gemini3 { return &Gemini3{issued: map[string]string{}} }

// Issued is how many signatures the fake has handed out.
func (g *Gemini3) Issued() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.issued)
}

// Handler checks each request and signs next's answers.
func (g *Gemini3) Handler(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		var req struct {
			Temperature *float64 `json:"temperature"`
			Messages    []struct {
				ToolCalls []struct {
					ID       string `json:"id"`
					Function struct {
						Name string `json:"name"`
					} `json:"function"`
					Extra struct {
						Google struct {
							Signature string `json:"thought_signature"`
						} `json:"google"`
					} `json:"extra_content"`
				} `json:"tool_calls"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			geminiError(w, "Invalid JSON payload received.")
			return
		}
		g.mu.Lock()
		g.Temperatures = append(g.Temperatures, req.Temperature)
		for i, m := range req.Messages {
			for _, c := range m.ToolCalls {
				if want, ok := g.issued[c.ID]; ok && c.Extra.Google.Signature != want {
					g.mu.Unlock()
					geminiError(w, fmt.Sprintf("Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:%s` , position %d. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.", c.Function.Name, i+1))
					return
				}
			}
		}
		g.mu.Unlock()
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		rec := httptest.NewRecorder()
		next(rec, r)
		out := rec.Body.Bytes()
		if rec.Code == http.StatusOK {
			out = g.sign(out)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(out)
	}
}

// sign adds a signature to the first tool call of an answer.
func (g *Gemini3) sign(body []byte) []byte {
	var resp map[string]any
	if json.Unmarshal(body, &resp) != nil {
		return body
	}
	choices, _ := resp["choices"].([]any)
	if len(choices) == 0 {
		return body
	}
	msg, _ := choices[0].(map[string]any)["message"].(map[string]any)
	calls, _ := msg["tool_calls"].([]any)
	if len(calls) == 0 {
		return body
	}
	c, _ := calls[0].(map[string]any)
	id, _ := c["id"].(string)
	g.mu.Lock()
	sig := fmt.Sprintf("CiQB%04dsig/%s==", len(g.issued)+1, id)
	g.issued[id] = sig
	g.mu.Unlock()
	c["extra_content"] = map[string]any{"google": map[string]any{"thought_signature": sig}}
	b, err := json.Marshal(resp)
	if err != nil {
		return body
	}
	return b
}

// geminiError writes Google's 400: a list holding one error.
func geminiError(w http.ResponseWriter, msg string) {
	b, _ := json.Marshal([]any{map[string]any{"error": map[string]any{"code": 400, "message": msg, "status": "INVALID_ARGUMENT"}}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(b)
}
