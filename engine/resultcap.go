package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif" // headers of the image formats a back-end may return
	_ "image/jpeg"
	_ "image/png"
	"strings"

	"github.com/thea-harness/thea/internal/anyjson"
	"github.com/thea-harness/thea/runlog"
)

// Bounds on one tool result, applied by the guard before the result is
// stored anywhere (context, run log, events).
const (
	// MaxResultImages bounds the images of one result.
	MaxResultImages = 8
	// MaxImagePixels bounds one image's width × height, read from its header
	// only (a small file can claim a huge canvas).
	MaxImagePixels = 4096 * 4096
)

// CapResult bounds env in place (the guard does it to every result): images beyond the count, with an oversized
// canvas or past the byte budget are dropped; a reason or value larger than
// the budget is cut. What was cut is said in the value's "truncated" field,
// so the model (and the run log) know the result is partial.
func CapResult(env *runlog.Envelope, tool string, limit int) {
	var notes []string
	budget := limit
	kept := env.Images[:0:0]
	for i, img := range env.Images {
		n := i + 1
		switch {
		case len(kept) >= MaxResultImages:
			notes = append(notes, fmt.Sprintf("image %d dropped: at most %d images per result", n, MaxResultImages))
			continue
		case len(img.Data) > budget:
			notes = append(notes, fmt.Sprintf("image %d (%d bytes) dropped: over max_result_bytes (%d)", n, len(img.Data), limit))
			continue
		}
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Data)); err == nil {
			if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > MaxImagePixels {
				notes = append(notes, fmt.Sprintf("image %d (%dx%d) dropped: over %d pixels", n, cfg.Width, cfg.Height, MaxImagePixels))
				continue
			}
			if img.Width == 0 && img.Height == 0 {
				img.Width, img.Height = cfg.Width, cfg.Height
			}
		}
		budget -= len(img.Data)
		kept = append(kept, img)
	}
	if len(env.Images) > 0 {
		env.Images = kept
	}
	if len(env.Reason) > budget {
		notes = append(notes, fmt.Sprintf("reason cut from %d bytes", len(env.Reason)))
		env.Reason = cutString(env.Reason, max(budget, 256))
	}
	budget -= len(env.Reason)
	if env.Value != nil {
		if size := jsonSize(env.Value); size > budget {
			env.Value = cutValue(env.Value, max(budget, 1024))
			notes = append(notes, fmt.Sprintf("value cut from %d bytes", size))
		}
	}
	if len(notes) > 0 {
		if env.Value == nil {
			env.Value = map[string]any{}
		}
		env.Value["truncated"] = fmt.Sprintf("%s returned more than max_result_bytes (%d): %s",
			tool, limit, strings.Join(notes, "; "))
	}
}

// cutValue shortens a value to about limit bytes of JSON: long strings are
// cut first (keeping the structure an observation decoder reads); when that
// is not enough, the value becomes the first bytes of its JSON as text.
func cutValue(v map[string]any, limit int) map[string]any {
	for share := limit / 4; share >= 64; share /= 4 {
		cut, _ := cutStrings(v, share).(map[string]any)
		if jsonSize(cut) <= limit {
			return cut
		}
	}
	b, _ := json.Marshal(v)
	return map[string]any{"text": cutString(string(b), limit)}
}

func cutStrings(v any, max int) any {
	switch x := v.(type) {
	case string:
		if len(x) > max {
			return cutString(x, max)
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = cutStrings(e, max)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cutStrings(e, max)
		}
		return out
	}
	return v
}

// cutString keeps the first bytes of s (on a rune boundary) and says how
// much was left out.
func cutString(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	keep := limit
	for keep > 0 && keep < len(s) && s[keep]&0xC0 == 0x80 {
		keep--
	}
	return s[:keep] + fmt.Sprintf("…[%d bytes cut]", len(s)-keep)
}

// jsonSize is the length of v's JSON, counted without encoding it (the
// guard sizes every result).
func jsonSize(v any) int { return anyjson.Size(v) }
