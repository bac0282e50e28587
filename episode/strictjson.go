package episode

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

// noDuplicateKeys refuses JSON text with a key given twice in one object:
// encoding/json keeps the last, so {"success": false, "success": true}
// would read as a success. The check is jsontext's own (as serve's request
// bodies are read); other syntax errors are left to the decoder that
// follows.
func noDuplicateKeys(b []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowInvalidUTF8(true))
	err := dec.SkipValue()
	var syn *jsontext.SyntacticError
	if errors.As(err, &syn) && errors.Is(syn.Err, jsontext.ErrDuplicateName) {
		where := string(syn.JSONPointer.Parent())
		if where == "" {
			where = "the top-level object"
		}
		return fmt.Errorf("key %q given twice in %s (at byte %d): each key may appear once", syn.JSONPointer.LastToken(), where, syn.ByteOffset)
	}
	return nil
}
