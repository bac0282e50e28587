package runlog

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// EventsFile is the run log's file in its run directory, and an episode's
// in its folder.
const EventsFile = "events.jsonl"

// Line is one line of a run log: the event as written, its images by the
// file names they were saved under beside it.
type Line struct {
	Event
	ImageFiles []string `json:"image_files,omitempty"`
	// ImageErrors says which images could not be saved; the event itself is
	// still written.
	ImageErrors []string `json:"image_errors,omitempty"`
}

// Writer appends one task's events to dir/events.jsonl, one Line each,
// saving their images as files beside it. Events reach it already redacted.
type Writer struct {
	dir    string
	f      *os.File
	images int
}

// Create makes dir (owner only) and opens its events.jsonl for appending.
func Create(dir string) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("run log: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, EventsFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("run log: %w", err)
	}
	return &Writer{dir: dir, f: f}, nil
}

// Dir is the run directory.
func (w *Writer) Dir() string { return w.dir }

// Write saves the event's images, then its line. An image that cannot be
// saved is named in the line, which is written all the same; the error is
// returned after the line.
func (w *Writer) Write(ev Event) error {
	line := Line{Event: ev}
	var imgErr error
	for _, img := range ev.Images {
		w.images++
		name := fmt.Sprintf("turn%04d-%s-%s-%d%s", ev.Turn, safeName(string(ev.Kind)), safeName(img.Camera), w.images, imageExt(img.MIME))
		if err := os.WriteFile(filepath.Join(w.dir, name), img.Data, 0o600); err != nil {
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
	if _, err := w.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("run log: %w", err)
	}
	return imgErr
}

// Close closes events.jsonl.
func (w *Writer) Close() error {
	if err := w.f.Close(); err != nil {
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
