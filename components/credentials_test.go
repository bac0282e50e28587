package components_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components"
)

// A credential a deployment keeps in the environment is named by a field
// ending in _env, which makes its value a secret (schema.Spec.SecretEnv).
// A toolset kind whose own fields (its CUE and its blocks') name a
// credential any other way would escape that rule: this test stops it.
func TestCredentialFieldsEndInEnv(t *testing.T) {
	c, err := components.Default(components.Options{})
	if err != nil {
		t.Fatal(err)
	}
	field := regexp.MustCompile(`(?m)^\s*"?([A-Za-z_][A-Za-z0-9_]*)"?\??:`)
	credential := regexp.MustCompile(`(?i)token|secret|password|passwd|api_?key|credential|bearer`)
	for _, k := range c.ToolsetKinds() {
		sources := []string{k.CUE}
		for _, b := range k.Blocks {
			sources = append(sources, b.CUE)
		}
		for _, src := range sources {
			for _, m := range field.FindAllStringSubmatch(src, -1) {
				if name := m[1]; credential.MatchString(name) && !strings.HasSuffix(name, "_env") {
					t.Errorf("toolset kind %q: the field %q names a credential: name it %s_env and read the value from the environment, so it is redacted as a secret",
						k.Name, name, strings.TrimSuffix(name, "_env"))
				}
			}
		}
	}
}
