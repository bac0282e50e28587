package episode

import (
	"strings"
)

// contextLines is how many unchanged lines a diff keeps around a change.
const contextLines = 2

// LineDiff is a compact line diff of two texts: "-" lines only in want,
// "+" lines only in got, up to two unchanged lines of context around each
// change, "…" for what is skipped. Equal texts give "".
func LineDiff(want, got string) string {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	// Longest common subsequence table (the texts are one event's JSON).
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		tag  byte
		text string
	}
	var ops []op
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, op{' ', a[i]})
			i++
			j++
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', a[i]})
			i++
		default:
			ops = append(ops, op{'+', b[j]})
			j++
		}
	}
	keep := make([]bool, len(ops))
	changed := false
	for k, o := range ops {
		if o.tag == ' ' {
			continue
		}
		changed = true
		for c := max(0, k-contextLines); c <= min(len(ops)-1, k+contextLines); c++ {
			keep[c] = true
		}
	}
	if !changed {
		return ""
	}
	var sb strings.Builder
	skipped := false
	for k, o := range ops {
		if !keep[k] {
			if !skipped {
				sb.WriteString("  …\n")
				skipped = true
			}
			continue
		}
		skipped = false
		sb.WriteByte(o.tag)
		sb.WriteByte(' ')
		sb.WriteString(o.text)
		sb.WriteByte('\n')
	}
	return sb.String()
}
