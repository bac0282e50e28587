package model

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// Tool names at the provider boundary. OpenAI and Anthropic both refuse a
// tool name outside ^[a-zA-Z0-9_-]{1,64}$ (an MCP server may well name a
// tool "arm.status"), so such a name travels as an alias: the same name
// always gets the same alias, and the set of tools a request offers maps
// each alias back to its name. Two tools whose names would reach the model
// as one are refused when the session starts.

// MaxToolNameLen is the longest tool name the providers accept.
const MaxToolNameLen = 64

// ToolNamePattern is the pattern every provider accepts, for messages.
const ToolNamePattern = `^[a-zA-Z0-9_-]{1,64}$`

// ValidToolName reports whether every provider accepts name as it is.
func ValidToolName(name string) bool {
	if name == "" || len(name) > MaxToolNameLen {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !nameByte(name[i]) {
			return false
		}
	}
	return true
}

func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// WireToolName is the name a provider sees for a tool: the name itself when
// it is valid; otherwise each character outside the pattern becomes '_'
// ("arm.status" → "arm_status"), and a name still too long keeps its first
// 55 characters and ends in '_' and 8 hex digits of the name's SHA-256, so
// that long names sharing a prefix stay apart.
func WireToolName(name string) string {
	if ValidToolName(name) {
		return name
	}
	var b strings.Builder
	b.Grow(len(name))
	for i := 0; i < len(name); i++ {
		if c := name[i]; nameByte(c) {
			b.WriteByte(c)
		} else if c < 0x80 || c >= 0xC0 { // one '_' per rune, not per byte
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" || len(s) > MaxToolNameLen {
		sum := sha256.Sum256([]byte(name))
		suffix := "_" + hex.EncodeToString(sum[:4])
		s = s[:min(len(s), MaxToolNameLen-len(suffix))] + suffix
	}
	return s
}

// ToolNames maps the tools of one request to the names a provider sees and
// back. The zero value maps every name to itself.
type ToolNames struct {
	toWire map[string]string // only names that change
	back   map[string]string // alias → name
}

// Alias is one tool whose name travels under another.
type Alias struct {
	Name string `json:"name"`
	Wire string `json:"wire"`
}

// NewToolNames maps names (each tool offered once) to their wire names. Two
// names that would reach the model as one are an error naming both.
func NewToolNames(names []string) (ToolNames, error) {
	if !slices.ContainsFunc(names, func(n string) bool { return !ValidToolName(n) }) {
		return ToolNames{}, nil
	}
	seen := make(map[string]string, len(names)) // wire name → the name that took it
	for _, n := range names {
		if ValidToolName(n) {
			seen[n] = n
		}
	}
	tn := ToolNames{toWire: map[string]string{}, back: map[string]string{}}
	for _, n := range names {
		if ValidToolName(n) {
			continue
		}
		w := WireToolName(n)
		if other, ok := seen[w]; ok && other != n {
			a, b := min(n, other), max(n, other)
			return ToolNames{}, fmt.Errorf("tools %q and %q would both reach the model as %q (providers accept only tool names matching %s): rename one, or leave one out with its toolset's tools list", a, b, w, ToolNamePattern)
		}
		seen[w] = n
		tn.toWire[n], tn.back[w] = w, n
	}
	return tn, nil
}

// CheckToolNames is NewToolNames's collision check alone, for the start of a
// session.
func CheckToolNames(names []string) error {
	_, err := NewToolNames(names)
	return err
}

// Wire is the name the provider sees for name; a name the request does not
// offer (a call in the history to a tool since gone) gets its alias too.
func (tn ToolNames) Wire(name string) string {
	if w, ok := tn.toWire[name]; ok {
		return w
	}
	return WireToolName(name)
}

// Name maps a name the provider used back to the tool's own name; a name
// that is no alias (a tool the model made up) comes back as it is.
func (tn ToolNames) Name(wire string) string {
	if n, ok := tn.back[wire]; ok {
		return n
	}
	return wire
}

// Aliases lists the tools whose names travel as aliases, sorted by name.
func (tn ToolNames) Aliases() []Alias {
	out := make([]Alias, 0, len(tn.toWire))
	for n, w := range tn.toWire {
		out = append(out, Alias{Name: n, Wire: w})
	}
	slices.SortFunc(out, func(a, b Alias) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// ToolNamesOf maps the tools a request offers.
func ToolNamesOf(defs []ToolDef) (ToolNames, error) {
	for _, d := range defs {
		if !ValidToolName(d.Name) {
			names := make([]string, len(defs))
			for i := range defs {
				names[i] = defs[i].Name
			}
			return NewToolNames(names)
		}
	}
	return ToolNames{}, nil
}

// FromWire maps the names of a response's calls back, keeping the name the
// provider used in WireName when it differs.
func (tn ToolNames) FromWire(calls []ToolCall) {
	for i := range calls {
		c := &calls[i]
		if n := tn.Name(c.Name); n != c.Name {
			c.WireName, c.Name = c.Name, n
		}
	}
}
