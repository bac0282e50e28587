package schema_test

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets"
)

// wsConfig is the config of a stand-in kind reached over a WebSocket, as a
// rosbridge kind would be: its own url field admits ws://.
type wsConfig struct {
	URL   string `json:"url"`
	Token string `json:"token_env,omitempty"`
}

// kindsDescriptors are the build's descriptors plus the stand-in "wsdemo" kind.
func kindsDescriptors(t *testing.T) *schema.Descriptors {
	t.Helper()
	c := componentstest.Descriptors(t)
	if err := c.Register(schema.Descriptor{Kind: schema.KindToolset, Name: "wsdemo", Doc: "a stand-in kind over a WebSocket",
		Config: wsConfig{}, CUE: "#Transport\nurl!: =~\"^wss?://\"\ntoken_env?: string\n"}); err != nil {
		t.Fatal(err)
	}
	return c
}

const kindsSpec = `name: kinds
model: {provider: script, script: turns.yaml}
embodiment:
  name: body
  limits: {max_translation_m: 1, max_rotation_deg: 90, min_clearance_m: 0.3, safety_margin_m: 0.1, reach_m: 0.8, max_speed_mps: 0.5, payload_kg: 1}
user: {channel: none}
toolsets:
%s`

func writeKindsSpec(t *testing.T, toolsetsYAML string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{"spec.yaml": strings.ReplaceAll(kindsSpec, "%s", toolsetsYAML), "turns.yaml": "- text: done\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "spec.yaml")
}

// Each kind validates exactly its own fields, at the user's positions: a
// ws:// url is another kind's, not mcp's; a builtin toolset has no stop; a
// misspelt field is named with the kind's field it resembles. A valid
// section decodes into the kind's own config type, defaults filled in.
func TestToolsetKindsValidateTheirOwnFields(t *testing.T) {
	cat := kindsDescriptors(t)
	path := writeKindsSpec(t, `  ros: {kind: wsdemo, url: "ws://robot:9090", token_env: ROS_TOKEN}
  core: {kind: builtin}
  sim: {kind: mcp, url: "http://localhost:9000/mcp", tools: [observe]}
`)
	s, diags := schema.Load([]string{path}, schema.LoadOptions{Descriptors: cat})
	if s == nil {
		t.Fatalf("diagnostics: %v", diags)
	}
	ros, ok := s.Toolsets["ros"].Config.(wsConfig)
	if !ok || ros.URL != "ws://robot:9090" || ros.Token != "ROS_TOKEN" || s.Toolsets["ros"].StopGrace.D().String() != "2s" {
		t.Fatalf("ros: %+v (config %T)", s.Toolsets["ros"], s.Toolsets["ros"].Config)
	}
	if c, ok := s.Toolsets["sim"].Config.(toolsets.MCPConfig); !ok || c.URL != "http://localhost:9000/mcp" {
		t.Fatalf("sim: %+v", s.Toolsets["sim"])
	}
	if s.Toolsets["core"].Config != nil {
		t.Fatalf("builtin has no config of its own: %+v", s.Toolsets["core"].Config)
	}

	path = writeKindsSpec(t, `  ros: {kind: wsdemo, url: "http://robot:9090", comand: [x]}
  core: {kind: builtin, stop: {tool: halt}}
  sim: {kind: mcp, url: "ws://localhost:9000/mcp", comand: [sim-server], tools: [observe]}
`)
	_, diags = schema.Load([]string{path}, schema.LoadOptions{Descriptors: cat})
	var got []string
	for _, d := range diags {
		got = append(got, strings.TrimPrefix(d.String(), filepath.Dir(path)+"/"))
	}
	for _, want := range []string{
		`spec.yaml:8:28: toolsets.ros.url: "http://robot:9090" does not start with ws:// or wss://`,
		`spec.yaml:8:49: toolsets.ros.comand: unknown field "comand"`,
		`spec.yaml:9:25: toolsets.core.stop: unknown field "stop": toolset kind "builtin" has no such field (mcp has it)`,
		`spec.yaml:10:25: toolsets.sim.url: "ws://localhost:9000/mcp" does not start with http:// or https://`,
		`spec.yaml:10:52: toolsets.sim.comand: unknown field "comand" (did you mean "command"?)`,
	} {
		if !slices.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, strings.Join(got, "\n"))
		}
	}
	if len(got) != 5 {
		t.Errorf("want exactly those 5 diagnostics, got:\n%s", strings.Join(got, "\n"))
	}
}

// `thea schema` and the JSON Schema show each kind with exactly its own
// fields: an editor accepts a ws:// url for the WebSocket kind and refuses
// it for mcp, and refuses a field no kind's definition has; so for every
// component a section names (a provider's wire is refused on script).
func TestJSONSchemaHasEachKindsFields(t *testing.T) {
	cat := kindsDescriptors(t)
	cueText := string(schema.CUESchema(cat))
	for _, want := range []string{"#Toolset_mcp: {", "#Toolset_wsdemo: {", `url!: =~"^wss?://"`, `if kind == "mcp" {#Toolset_mcp}`} {
		if !strings.Contains(cueText, want) {
			t.Errorf("thea schema lacks %q", want)
		}
	}
	b, err := schema.JSONSchema(cat)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs map[string]struct {
			Properties map[string]any `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for kind, want := range map[string]string{
		"Toolset_builtin": "kind max_result_bytes timeout tools",
		"Toolset_wsdemo":  "kind max_result_bytes on_uncertain restart start_timeout stop_grace timeout token_env tools url",
		// Every component a section names, not only toolset kinds.
		"Model_script":    "provider retries script timeout",
		"Model_human":     "provider retries timeout",
		"Model_openai":    "api_key_env base_url max_tokens name provider retries temperature timeout wire",
		"PreHook_confirm": "action name prompt reason rule when",
		"PreHook_block":   "action name reason rule when",
		"PostHook_note":   "action name note when",
		"User_script":     "channel script timeout",
	} {
		if got := strings.Join(slices.Sorted(maps.Keys(doc.Defs[kind].Properties)), " "); got != want {
			t.Errorf("%s fields: %s, want %s", kind, got, want)
		}
	}
	raw, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("spec.json", raw); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("spec.json")
	if err != nil {
		t.Fatal(err)
	}
	spec := func(toolset string) any {
		var v any
		if err := json.Unmarshal([]byte(`{"name":"k","model":{"provider":"script","script":"t.yaml"},"embodiment":{"name":"b","limits":{"max_translation_m":1,"max_rotation_deg":90,"min_clearance_m":0.3,"safety_margin_m":0.1,"reach_m":0.8,"max_speed_mps":0.5,"payload_kg":1}},"toolsets":{"x":`+toolset+`}}`), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	model := func(m string) any {
		var v any
		if err := json.Unmarshal([]byte(`{"name":"k","model":`+m+`,"embodiment":{"name":"b","limits":{"min_clearance_m":0.3,"safety_margin_m":0.1}}}`), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for m, ok := range map[string]bool{
		`{"provider":"script","script":"t.yaml","retries":0}`:                           true,
		`{"provider":"openai","name":"gpt-4o","wire":{"family":"standard"}}`:            true,
		`{"provider":"script","script":"t.yaml","wire":{"family":"standard"}}`:          false,
		`{"provider":"anthropic","name":"c","wire":{"token_limit_field":"max_tokens"}}`: false,
		`{"provider":"human","script":"t.yaml"}`:                                        false,
	} {
		if err := sch.Validate(model(m)); (err == nil) != ok {
			t.Errorf("model %s: valid %v, want %v (%v)", m, err == nil, ok, err)
		}
	}
	for toolset, ok := range map[string]bool{
		`{"kind":"wsdemo","url":"ws://robot:9090"}`:        true,
		`{"kind":"mcp","url":"http://robot/mcp"}`:          true,
		`{"kind":"mcp","url":"ws://robot:9090"}`:           false,
		`{"kind":"mcp","command":["x"],"comand":["x"]}`:    false,
		`{"kind":"builtin","stop":{"tool":"halt"}}`:        false,
		`{"kind":"wsdemo","url":"ws://r","command":["x"]}`: false,
	} {
		if err := sch.Validate(spec(toolset)); (err == nil) != ok {
			t.Errorf("%s: valid %v, want %v (%v)", toolset, err == nil, ok, err)
		}
	}
}
