package anyjson

// Depth is the nesting depth of a JSON text: how many objects and arrays
// its deepest value is inside (0 for a scalar), counted over the brackets
// outside strings in one pass with no allocation and no recursion, so a
// hostile text of 20,000 nested brackets is measured before anything
// decodes it. It does not validate: the depth of an invalid text is that
// of its brackets.
func Depth(data []byte) int {
	depth, deepest := 0, 0
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch c {
			case '\\':
				i++ // the escaped byte cannot end the string
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth--
		}
	}
	return deepest
}

// Cut returns data with every value nested deeper than limit objects and
// arrays replaced by marker (a JSON text, such as a string literal), and
// whether it replaced any. A valid text stays valid, and with a scalar
// marker at most limit deep: a reader that refuses deeper texts
// (encoding/json stops at 10,000) can then decode the rest and see where
// it was cut.
func Cut(data []byte, limit int, marker []byte) ([]byte, bool) {
	if Depth(data) <= limit {
		return data, false
	}
	out := make([]byte, 0, len(data))
	depth := 0
	inString := false
	skipping := false // inside a cut value: until depth is back to limit
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			if !skipping {
				out = append(out, c)
			}
			switch c {
			case '\\':
				if i+1 < len(data) {
					i++
					if !skipping {
						out = append(out, data[i])
					}
				}
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth == limit+1 && !skipping {
				skipping = true
				out = append(out, marker...)
			}
		case '}', ']':
			depth--
			if skipping && depth == limit {
				skipping = false
				continue // the cut value's own closing bracket
			}
		}
		if !skipping {
			out = append(out, c)
		}
	}
	return out, true
}
