package world

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/thea-harness/thea/internal/anyjson"
)

// Decode reads a back-end's observation JSON (the value of its tool result)
// as the documented Observation. It is the one decoder of an observation:
// the body layer's "is this an observation" check, the observe stage and
// the evidence of a check all read through it. A body reports what it has
// (an arm: joints, end_effector and gripper; a base: pose and clearance);
// a value that is not a JSON object, sends none of the Observation's fields
// (Fields), or sends one in the wrong shape is an error saying which.
func Decode(raw []byte) (Observation, error) {
	var obs Observation
	if err := json.Unmarshal(raw, &obs); err != nil {
		return Observation{}, fmt.Errorf("it does not decode as an observation: %w", err)
	}
	if obs.sent == 0 {
		return Observation{}, errNoFields()
	}
	return obs, nil
}

// DecodeValue is Decode of a value already parsed from JSON (a tool
// result's map of plain JSON values), read straight into the typed shape
// when it can be and through one encode and Decode when not, with the same
// result and the same errors.
func DecodeValue(v any) (Observation, error) {
	if obs, ok := decodeDirect(v); ok {
		if obs.sent == 0 {
			return Observation{}, errNoFields()
		}
		return obs, nil
	}
	b, err := anyjson.Marshal(v)
	if err != nil {
		return Observation{}, fmt.Errorf("its value cannot be encoded: %w", err)
	}
	return Decode(b)
}

// errNoFields says that a value sent none of the Observation's fields.
func errNoFields() error {
	return fmt.Errorf("it has none of the observation fields %s", strings.Join(observationFields[:], ", "))
}
