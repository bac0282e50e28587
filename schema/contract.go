package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
)

// CheckContract checks a value a back-end returned against one definition
// of the back-end contract ("observation", "clearance", "verdict",
// "envelope"), the same CUE definitions `thea schema --def` prints. Every
// problem is listed, each with its path in the value.
func CheckContract(def string, value any) error {
	name := ""
	for _, d := range ContractDefs {
		if strings.EqualFold(d, def) {
			name = strings.ToUpper(d[:1]) + d[1:]
		}
	}
	if name == "" {
		return fmt.Errorf("no contract definition %q (want one of %s)", def, strings.Join(ContractDefs, ", "))
	}
	ctx := cuecontext.New()
	schema := ctx.CompileBytes(schemaFor(nil, formLoad), cue.Filename(schemaFile))
	if err := schema.Err(); err != nil {
		return fmt.Errorf("compiling the schema: %w", err)
	}
	// Through JSON text, so 64 is an integer as the back-end wrote it, not
	// the float64 a Go decoder made of it.
	raw, err := json.Marshal(value)
	if err != nil {
		return fmt.Errorf("encoding the value: %w", err)
	}
	data := ctx.CompileBytes(raw, cue.Filename("value.json"))
	if err := data.Err(); err != nil {
		return fmt.Errorf("reading the value: %w", err)
	}
	v := schema.LookupPath(cue.MakePath(cue.Def(name))).Unify(data)
	err = v.Validate(cue.Concrete(true), cue.All())
	if err == nil {
		return nil
	}
	var msgs []string
	for _, e := range cueerrors.Errors(err) {
		format, args := e.Msg()
		msg := humanize(fmt.Sprintf(format, args...))
		if p := strings.Join(e.Path()[min(1, len(e.Path())):], "."); p != "" {
			msg = p + ": " + msg
		}
		msgs = append(msgs, msg)
	}
	return errors.New(strings.Join(msgs, "; "))
}
