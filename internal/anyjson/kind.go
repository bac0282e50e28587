package anyjson

// Kind names what a decoded value is, as a reason to a model or a user
// reads it: "null", "a boolean", "a string", "an array", "an object" or
// "a number".
func Kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "a number"
}
