package engine

import (
	"encoding/json"
	"fmt"
	"github.com/thea-harness/thea/runlog"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// buildRunLog resolves the run-log directory.
func (h *Harness) buildRunLog() {
	dir := h.spec.RunLog.Dir
	switch {
	case h.opts.RunLogDir != "":
		// The caller's path (a --run-log flag): relative to the process's
		// working directory, not the spec's.
		h.runLogDir = h.opts.RunLogDir
	case !h.spec.RunLog.Enabled:
	case dir == "":
		h.runLogDir = h.resolve(filepath.Join(".thea", "runs"))
	default:
		h.runLogDir = h.resolve(dir)
	}
}

// runLog is the sink that writes one task's events as JSON lines, images as
// files beside them. Events reach it already redacted.
type runLog struct {
	dir    string
	f      *os.File
	images int
}

var _ Sink = (*runLog)(nil)

// logLine is an event as the run log stores it: images by file name.
type logLine struct {
	runlog.Event
	ImageFiles []string `json:"image_files,omitempty"`
	// ImageErrors says which images could not be saved; the event itself is
	// still written.
	ImageErrors []string `json:"image_errors,omitempty"`
}

func openRunLog(base string, now time.Time, task int) (*runLog, error) {
	dir := filepath.Join(base, fmt.Sprintf("%s-task%d", now.UTC().Format("20060102T150405.000000000Z"), task))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("run log: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "events.jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("run log: %w", err)
	}
	return &runLog{dir: dir, f: f}, nil
}

// Write saves the event's images, then its line. An image that cannot be
// saved is named in the line, which is written all the same; the error is
// returned after the line.
func (l *runLog) Write(ev runlog.Event) error {
	line := logLine{Event: ev}
	var imgErr error
	for _, img := range ev.Images {
		l.images++
		name := fmt.Sprintf("turn%04d-%s-%s-%d%s", ev.Turn, safeName(string(ev.Kind)), safeName(img.Camera), l.images, imageExt(img.MIME))
		if err := os.WriteFile(filepath.Join(l.dir, name), img.Data, 0o600); err != nil {
			imgErr = fmt.Errorf("run log image %s: %w", name, err)
			line.ImageErrors = append(line.ImageErrors, imgErr.Error())
			continue
		}
		line.ImageFiles = append(line.ImageFiles, name)
	}
	b, err := json.Marshal(line)
	if err != nil {
		return fmt.Errorf("run log: encode %s event: %w", ev.Kind, err)
	}
	if _, err := l.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("run log: %w", err)
	}
	return imgErr
}

// Close closes events.jsonl.
func (l *runLog) Close() error {
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

// maxNamePart bounds each untrusted part of an image file name (a camera
// named with 300 characters must not make the name too long to create).
const maxNamePart = 40

// safeName keeps letters, digits, '-' and '_' of an untrusted string, maps
// the rest to '_', and bounds its length.
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= maxNamePart {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "image"
	}
	return b.String()
}
