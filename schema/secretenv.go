package schema

import (
	"reflect"
	"regexp"
	"slices"
	"strings"
)

// Every credential Thea reads from the environment is named in the spec by
// a field whose name ends in "_env" (model api_key_env, a rosbridge
// toolset's token_env, run_log.secret_env), and every such field's value is
// a secret: the session redacts it wherever it appears. The rule is
// structural, so a new component's credential field (a kind's own section
// included, decoded or not) is a secret by its name alone, without a list
// to keep up to date.

// envNamePattern is what an environment variable's name looks like (the
// CUE schema checks each _env field against the same).
var envNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// SecretEnv lists, sorted and without duplicates, the environment
// variables whose values are secrets: every field of the spec whose name
// ends in "_env", wherever it stands (the models, run_log, each toolset's
// own section), holding a variable's name or a list of them.
func (s *Spec) SecretEnv() []string {
	if s == nil {
		return nil
	}
	var names []string
	collectEnv(reflect.ValueOf(s).Elem(), false, &names, 0)
	slices.Sort(names)
	return slices.Compact(names)
}

// maxEnvDepth bounds the walk; a spec nests far less.
const maxEnvDepth = 64

// collectEnv walks v; named says v is the value of an _env field.
func collectEnv(v reflect.Value, named bool, names *[]string, depth int) {
	if depth > maxEnvDepth || !v.IsValid() {
		return
	}
	switch v.Kind() {
	case reflect.String:
		if n := v.String(); named && envNamePattern.MatchString(n) {
			*names = append(*names, n)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			collectEnv(v.Elem(), named, names, depth+1)
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := range v.Len() {
			collectEnv(v.Index(i), named, names, depth+1)
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return
		}
		for it := v.MapRange(); it.Next(); {
			collectEnv(it.Value(), isEnvField(it.Key().String()), names, depth+1)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			tag := f.Tag.Get("json")
			// Of the fields hidden from JSON only a toolset's decoded
			// Config (an interface) is walked: it is where a kind keeps
			// its own section. The rest (compiled rules, positions) is
			// the loader's, not the user's.
			if tag == "-" && f.Type.Kind() != reflect.Interface {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			collectEnv(v.Field(i), isEnvField(name), names, depth+1)
		}
	}
}

func isEnvField(name string) bool { return strings.HasSuffix(name, "_env") }
