package call

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strconv"
)

// Inline keeps a request's images out of JSON encoding: an adapter puts a
// placeholder string where an image's base64 goes and Substitute writes the
// base64 into the encoded body in one pass. Encoding large base64 strings
// through nested JSON marshalers (langchaingo's) re-scans them several times,
// about 10x the cost per turn with a camera image.
type Inline struct {
	nonce string
	items []inlineItem
}

type inlineItem struct {
	prefix string
	data   []byte
}

// NewInline starts an empty set with a placeholder prefix unique to it.
func NewInline() *Inline {
	return &Inline{nonce: strconv.FormatUint(rand.Uint64(), 36)}
}

// Add returns the placeholder for prefix followed by data in base64. The
// prefix must need no JSON escaping (e.g. "data:image/png;base64,").
func (in *Inline) Add(prefix string, data []byte) string {
	in.items = append(in.items, inlineItem{prefix: prefix, data: data})
	return in.placeholder(len(in.items) - 1)
}

// Len is the number of images added.
func (in *Inline) Len() int { return len(in.items) }

func (in *Inline) placeholder(i int) string {
	return "thea-inline-" + in.nonce + "-" + strconv.Itoa(i)
}

// Substitute replaces each quoted placeholder in body, in order, by its
// prefix and base64 data (base64 needs no JSON escaping).
func (in *Inline) Substitute(body []byte) ([]byte, error) {
	size := len(body)
	for _, it := range in.items {
		size += len(it.prefix) + base64.StdEncoding.EncodedLen(len(it.data))
	}
	out := make([]byte, 0, size)
	rest := body
	for i, it := range in.items {
		ph := `"` + in.placeholder(i) + `"`
		k := bytes.Index(rest, []byte(ph))
		if k < 0 {
			return nil, fmt.Errorf("image %d is missing from the encoded request", i)
		}
		out = append(out, rest[:k+1]...)
		out = append(out, it.prefix...)
		out = base64.StdEncoding.AppendEncode(out, it.data)
		out = append(out, '"')
		rest = rest[k+len(ph):]
	}
	return append(out, rest...), nil
}
