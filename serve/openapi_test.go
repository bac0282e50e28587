package serve

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// The served description names every route of the mux and no other, each
// with its method, the optional ones (/metrics, /mcp) included.
func TestOpenAPICoversRoutes(t *testing.T) {
	f := start(t, "", "- text: hi\n", Config{})
	var doc struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}
	if code := f.do("GET", "/openapi.json", nil, &doc); code != http.StatusOK {
		t.Fatalf("GET /openapi.json: %d", code)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Errorf("openapi %q, want 3.x", doc.OpenAPI)
	}
	var routes, described []string
	// Every route, the optional ones turned on.
	all := New(Config{Metrics: http.NotFoundHandler(), MCP: http.NotFoundHandler()})
	for _, r := range all.routes() {
		routes = append(routes, strings.ToLower(r.method)+" "+r.path)
	}
	for _, r := range all.optionalRoutes() {
		routes = append(routes, strings.ToLower(r.method)+" "+r.path)
	}
	for path, ops := range doc.Paths {
		for method := range ops {
			if method != "parameters" {
				described = append(described, method+" "+path)
			}
		}
	}
	slices.Sort(routes)
	slices.Sort(described)
	if !slices.Equal(routes, described) {
		t.Errorf("routes and /openapi.json differ:\n mux     %q\n openapi %q", routes, described)
	}
	// Every $ref points at a defined component.
	var raw map[string]any
	if err := json.Unmarshal(openAPI, &raw); err != nil {
		t.Fatal(err)
	}
	comps := raw["components"].(map[string]any)
	for _, ref := range refs(raw) {
		parts := strings.Split(strings.TrimPrefix(ref, "#/components/"), "/")
		group, _ := comps[parts[0]].(map[string]any)
		if len(parts) != 2 || group[parts[1]] == nil {
			t.Errorf("dangling $ref %q", ref)
		}
	}
}

func refs(v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && k == "$ref" {
				out = append(out, s)
			}
			out = append(out, refs(e)...)
		}
	case []any:
		for _, e := range x {
			out = append(out, refs(e)...)
		}
	}
	return out
}
