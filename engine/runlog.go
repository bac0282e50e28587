package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/thea-harness/thea/schema"
)

const redacted = "[redacted]"

// buildRunLog resolves the run-log directory and the secrets it must never
// write: the values of every api_key_env variable named in the spec and the
// run_log.redact patterns.
func (h *Harness) buildRunLog() error {
	dir := h.spec.RunLog.Dir
	switch {
	case h.opts.RunLogDir != "":
		dir = h.opts.RunLogDir
	case !h.spec.RunLog.Enabled:
		dir = ""
	case dir == "":
		dir = filepath.Join(".thea", "runs")
	}
	if dir != "" {
		h.runLogDir = h.resolve(dir)
	}
	models := []*schema.Model{&h.spec.Model, h.spec.Evaluator.Model, h.spec.Context.Compaction.CompactionModel, h.spec.Memory.Consolidation.Model}
	for _, m := range models {
		if m == nil || m.APIKeyEnv == "" {
			continue
		}
		if v := h.readEnv(m.APIKeyEnv); v != "" {
			h.secrets = append(h.secrets, v)
		}
	}
	for i, pat := range h.spec.RunLog.Redact {
		re, err := regexp.Compile(pat)
		if err != nil {
			return fmt.Errorf("run_log.redact[%d]: %w", i, err)
		}
		h.redact = append(h.redact, re)
	}
	return nil
}

// runLog writes one task's events as JSON lines, images as files beside them.
type runLog struct {
	dir     string
	f       *os.File
	secrets []string
	redact  []*regexp.Regexp
	images  int
}

// logLine is an event as the run log stores it: images by file name.
type logLine struct {
	Event
	ImageFiles []string `json:"image_files,omitempty"`
}

func openRunLog(base string, now time.Time, task int, secrets []string, redact []*regexp.Regexp) (*runLog, error) {
	dir := filepath.Join(base, fmt.Sprintf("%s-task%d", now.UTC().Format("20060102T150405.000000000Z"), task))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("run log: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "events.jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("run log: %w", err)
	}
	return &runLog{dir: dir, f: f, secrets: secrets, redact: redact}, nil
}

func (l *runLog) write(ev Event) error {
	line := logLine{Event: ev}
	for _, img := range ev.Images {
		l.images++
		name := fmt.Sprintf("turn%04d-%s-%s-%d%s", ev.Turn, ev.Kind, safeName(img.Camera), l.images, imageExt(img.MIME))
		if err := os.WriteFile(filepath.Join(l.dir, name), img.Data, 0o644); err != nil {
			return fmt.Errorf("run log image: %w", err)
		}
		line.ImageFiles = append(line.ImageFiles, name)
	}
	b, err := json.Marshal(line)
	if err != nil {
		return fmt.Errorf("run log: encode %s event: %w", ev.Kind, err)
	}
	if len(l.secrets) > 0 || len(l.redact) > 0 {
		if b, err = l.scrub(b); err != nil {
			return err
		}
	}
	if _, err := l.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("run log: %w", err)
	}
	return nil
}

// scrub redacts secrets inside every string of the encoded line (keys and
// values), so a pattern can never break the JSON structure.
func (l *runLog) scrub(b []byte) ([]byte, error) {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("run log: redact: %w", err)
	}
	out, err := json.Marshal(l.scrubValue(v))
	if err != nil {
		return nil, fmt.Errorf("run log: redact: %w", err)
	}
	return out, nil
}

func (l *runLog) scrubValue(v any) any {
	switch x := v.(type) {
	case string:
		return l.scrubString(x)
	case []any:
		for i := range x {
			x[i] = l.scrubValue(x[i])
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[l.scrubString(k)] = l.scrubValue(e)
		}
		return out
	}
	return v
}

func (l *runLog) scrubString(s string) string {
	for _, sec := range l.secrets {
		s = strings.ReplaceAll(s, sec, redacted)
	}
	for _, re := range l.redact {
		s = re.ReplaceAllString(s, redacted)
	}
	return s
}

func (l *runLog) close() error {
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("run log: %w", err)
	}
	return nil
}

func imageExt(mime string) string {
	switch mime {
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	}
	return ".png"
}

func safeName(s string) string {
	if s == "" {
		return "image"
	}
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == '.' || r == ' ' {
			return '_'
		}
		return r
	}, s)
}
