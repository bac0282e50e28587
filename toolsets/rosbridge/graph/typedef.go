package graph

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// TypeDef is rosapi_msgs/msg/TypeDef: a message's fields and their types.
// rosapi is outside Thea, so a typedef is checked before it is used, and
// its fields are indexed once: a lookup does not scan the field list, so
// reading an answer of n typedefs and checking an expr against it stays
// linear however large rosapi's answer is.
type TypeDef struct {
	Type       string   `json:"type"`
	FieldNames []string `json:"fieldnames"`
	FieldTypes []string `json:"fieldtypes"`
	ArrayLen   []int    `json:"fieldarraylen"`
	index      map[string]int
}

// ParseTypedefs reads a *_details answer ({"typedefs": [...]}); every
// typedef is checked, and a malformed one is an error naming its type.
func ParseTypedefs(raw []byte) ([]TypeDef, error) {
	var r struct{ Typedefs []TypeDef }
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("rosapi's answer is not a list of typedefs: %w", err)
	}
	for i := range r.Typedefs {
		if err := r.Typedefs[i].check(); err != nil {
			return nil, fmt.Errorf("rosapi's typedef %d: %w", i, err)
		}
	}
	return r.Typedefs, nil
}

// check validates d and builds its field index.
func (d *TypeDef) check() error {
	if d.Type == "" {
		return errors.New("it names no type")
	}
	n := len(d.FieldNames)
	if len(d.FieldTypes) != n {
		return fmt.Errorf("the definition of %s is malformed: %d fieldnames and %d fieldtypes", d.Type, n, len(d.FieldTypes))
	}
	if len(d.ArrayLen) != 0 && len(d.ArrayLen) != n {
		return fmt.Errorf("the definition of %s is malformed: %d fieldnames and %d fieldarraylen", d.Type, n, len(d.ArrayLen))
	}
	d.index = make(map[string]int, n)
	for i, name := range d.FieldNames {
		if _, dup := d.index[name]; dup {
			return fmt.Errorf("the definition of %s is malformed: field %q twice", d.Type, name)
		}
		d.index[name] = i
	}
	return nil
}

// Field looks name up in a checked typedef.
func (d *TypeDef) Field(name string) (typ string, array, ok bool) {
	i, ok := d.index[name]
	if !ok {
		return "", false, false
	}
	if i < len(d.ArrayLen) {
		array = d.ArrayLen[i] >= 0
	}
	return d.FieldTypes[i], array, true
}

// maxListedFields bounds the field names an error lists.
const maxListedFields = 20

// FieldList is d's field names for an error, at most maxListedFields.
func (d *TypeDef) FieldList() string {
	if len(d.FieldNames) <= maxListedFields {
		return strings.Join(d.FieldNames, ", ")
	}
	return fmt.Sprintf("%s, … (%d fields)", strings.Join(d.FieldNames[:maxListedFields], ", "), len(d.FieldNames))
}
