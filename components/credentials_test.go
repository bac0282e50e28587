package components_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/schema"
)

// A credential a deployment keeps in the environment is named by a field
// ending in _env, which makes its value a secret (schema.Spec.SecretEnv).
// A component whose own fields (its CUE: a toolset kind's, a provider's, a
// hook action's, a user channel's) name a credential any other way would
// escape that rule: this test stops it.
func TestCredentialFieldsEndInEnv(t *testing.T) {
	c, err := components.Default(components.Options{})
	if err != nil {
		t.Fatal(err)
	}
	field := regexp.MustCompile(`(?m)^\s*"?([A-Za-z_][A-Za-z0-9_]*)"?[?!]?:`)
	credential := regexp.MustCompile(`(?i)token|secret|password|passwd|api_?key|credential|bearer`)
	// Counts of the model's output tokens, not credentials.
	notCredential := map[string]bool{"max_tokens": true, "token_limit_field": true}
	d := c.Descriptors()
	checked := 0
	for _, sk := range schema.SectionKinds() {
		for _, name := range d.Names(sk.Kind) {
			desc, _ := d.Lookup(sk.Kind, name)
			checked++
			for _, m := range field.FindAllStringSubmatch(desc.CUE, -1) {
				if f := m[1]; credential.MatchString(f) && !strings.HasSuffix(f, "_env") && !notCredential[f] {
					t.Errorf("%s %q: the field %q names a credential: name it %s_env and read the value from the environment, so it is redacted as a secret",
						sk.Kind, name, f, strings.TrimSuffix(f, "_env"))
				}
			}
		}
	}
	if checked < 10 {
		t.Fatalf("checked %d components: the catalog lost its way", checked)
	}
}
