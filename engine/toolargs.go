package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	neturl "net/url"
	"sort"
	"strings"
	"unicode"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/thea-harness/thea/internal/anyjson"
)

// ErrToolUnavailable marks a tool the toolset cannot offer (its inputSchema
// needs an external document): the toolset starts without it.
var ErrToolUnavailable = errors.New("tool unavailable")

// refusingLoader is the schema compiler's loader for every $ref outside the
// tool's own schema: it loads nothing. A back-end's schema must not make the
// harness read a local file (file:///home/..., /dev/stdin) or fetch a URL and
// show its content to the model; the draft meta-schemas are built into the
// library and never reach a loader.
type refusingLoader struct{ refused []string }

func (l *refusingLoader) Load(url string) (any, error) {
	l.refused = append(l.refused, url)
	return nil, fmt.Errorf("external schema references are not followed: %q", url)
}

func (l *refusingLoader) describe() string {
	q := make([]string, len(l.refused))
	for i, u := range l.refused {
		if len(u) > 120 {
			u = u[:120] + "..."
		}
		q[i] = fmt.Sprintf("%q", u)
	}
	return strings.Join(q, ", ")
}

// Bounds of a tool's inputSchema, checked on its bytes before anything
// decodes or compiles it: a back-end's schema nesting 20,000 levels or
// weighing megabytes would otherwise cost the harness its stack and time
// at every start, and reach the model in every request. A real tool's
// schema is a few levels and kilobytes.
const (
	MaxSchemaDepth = 64        // objects and arrays inside one another
	MaxSchemaBytes = 256 << 10 // the schema's JSON text
)

// schemaBounds refuses an inputSchema past MaxSchemaDepth or
// MaxSchemaBytes; the tool is then unavailable (ErrToolUnavailable), not
// callable.
func schemaBounds(tool string, raw json.RawMessage) error {
	if len(raw) > MaxSchemaBytes {
		return fmt.Errorf("tool %q is unavailable: its inputSchema is %d bytes, over the bound of %d bytes: %w", tool, len(raw), MaxSchemaBytes, ErrToolUnavailable)
	}
	// The depth measured is not said: a transport may have cut a deeper
	// text already (see toolsets' stdout filter).
	if anyjson.Depth(raw) > MaxSchemaDepth {
		return fmt.Errorf("tool %q is unavailable: its inputSchema nests objects and arrays deeper than the bound of %d levels: %w", tool, MaxSchemaDepth, ErrToolUnavailable)
	}
	return nil
}

// compileSchema compiles one tool's inputSchema and lists its top-level
// property names (for "unknown argument" messages).
func compileSchema(tool string, raw json.RawMessage) (*jsonschema.Schema, []string, error) {
	if err := schemaBounds(tool, raw); err != nil {
		return nil, nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, nil, fmt.Errorf("tool %q: inputSchema is not JSON: %w", tool, err)
	}
	// An argument the schema does not name is refused even when the schema
	// leaves additionalProperties open: a misspelt argument silently ignored
	// would make the model believe it had been used.
	if m, ok := doc.(map[string]any); ok {
		if _, hasProps := m["properties"]; hasProps {
			if _, set := m["additionalProperties"]; !set {
				m["additionalProperties"] = false
			}
		}
	}
	// Escaped: a "#" or "%" in an MCP tool's name must not break its URL.
	url := "thea:///tools/" + neturl.PathEscape(tool) + ".json"
	c := jsonschema.NewCompiler()
	refs := &refusingLoader{}
	c.UseLoader(refs)
	if err := c.AddResource(url, doc); err != nil {
		return nil, nil, fmt.Errorf("tool %q: inputSchema: %w", tool, err)
	}
	sch, err := c.Compile(url)
	if len(refs.refused) > 0 {
		return nil, nil, fmt.Errorf("tool %q is unavailable: its inputSchema refers to %s, outside the schema "+
			"(only references inside it, such as #/$defs/x, are followed): %w", tool, refs.describe(), ErrToolUnavailable)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("tool %q: inputSchema does not compile: %w", tool, err)
	}
	var props []string
	if m, ok := doc.(map[string]any); ok {
		if p, ok := m["properties"].(map[string]any); ok {
			for k := range p {
				props = append(props, k)
			}
			sort.Strings(props)
		}
	}
	return sch, props, nil
}

// describe turns a validation error into one sentence per problem, naming the
// argument and saying what is wrong.
func describe(verr *jsonschema.ValidationError, props []string) string {
	p := message.NewPrinter(language.English)
	var parts []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		parts = append(parts, leaf(e, props, p))
	}
	walk(verr)
	return strings.Join(parts, "; ")
}

func leaf(e *jsonschema.ValidationError, props []string, p *message.Printer) string {
	where := "the arguments"
	if len(e.InstanceLocation) > 0 {
		where = fmt.Sprintf("argument %q", strings.Join(e.InstanceLocation, "."))
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		return fmt.Sprintf("missing required argument %s", quoteAll(k.Missing, e.InstanceLocation))
	case *kind.AdditionalProperties:
		msg := fmt.Sprintf("unknown argument %s", quoteAll(k.Properties, e.InstanceLocation))
		if len(e.InstanceLocation) == 0 && len(props) > 0 {
			msg += fmt.Sprintf(" (accepted: %s)", strings.Join(props, ", "))
		}
		return msg
	case *kind.Type:
		return fmt.Sprintf("%s must be %s, got %s", where, strings.Join(k.Want, " or "), k.Got)
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			b, _ := json.Marshal(w)
			want[i] = string(b)
		}
		return fmt.Sprintf("%s must be one of %s", where, strings.Join(want, ", "))
	}
	return fmt.Sprintf("%s: %s", where, e.ErrorKind.LocalizedString(p))
}

func quoteAll(names, prefix []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", strings.Join(append(append([]string{}, prefix...), n), "."))
	}
	return strings.Join(q, ", ")
}

// ArgumentChecker checks arguments against one tool's input schema the way
// the guard does before a call, with the same messages (the human provider
// refuses a bad argument before it becomes a call).
type ArgumentChecker struct {
	tool  string
	sch   *jsonschema.Schema
	props []string
}

// NewArgumentChecker compiles a tool's input schema (nil or empty: any
// object is accepted).
func NewArgumentChecker(tool string, inputSchema json.RawMessage) (*ArgumentChecker, error) {
	c := &ArgumentChecker{tool: tool}
	if len(inputSchema) == 0 {
		return c, nil
	}
	sch, props, err := compileSchema(tool, inputSchema)
	if err != nil {
		return nil, err
	}
	c.sch, c.props = sch, props
	return c, nil
}

// Check validates arguments typed as JSON text (empty means {}); the error
// says which argument is wrong and how.
func (c *ArgumentChecker) Check(text string) error {
	trimmed := bytes.TrimSpace([]byte(text))
	if len(trimmed) == 0 {
		trimmed = []byte("{}")
	}
	v, err := decodeArgs([]byte(text), trimmed) // as the guard parses them
	if err != nil {
		return fmt.Errorf("the arguments of %s are not valid JSON (%v): type one JSON object", c.tool, err)
	}
	if _, ok := v.(map[string]any); !ok {
		return fmt.Errorf("the arguments of %s must be a JSON object, got %s", c.tool, anyjson.Kind(v))
	}
	if c.sch == nil {
		return nil
	}
	if err := c.sch.Validate(v); err != nil {
		var verr *jsonschema.ValidationError
		if errors.As(err, &verr) {
			return fmt.Errorf("invalid arguments for %s: %s", c.tool, describe(verr, c.props))
		}
		return fmt.Errorf("invalid arguments for %s: %w", c.tool, err)
	}
	return nil
}

// decodeArgs decodes trimmed, the arguments sent as text with the space
// around them trimmed (or its stand-in for none), with json.Number numbers,
// as the schema validator expects them. A syntax error's offset is in text
// as it was sent, leading space included.
func decodeArgs(text, trimmed []byte) (any, error) {
	v, err := anyjson.Unmarshal(trimmed, anyjson.UseNumber)
	if jerr, ok := errors.AsType[*anyjson.Error](err); ok {
		jerr.Offset += len(text) - len(bytes.TrimLeftFunc(text, unicode.IsSpace))
	}
	return v, err
}
