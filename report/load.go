package report

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// Limits on what a run directory may make the page embed.
const (
	maxLine       = 16 << 20 // one events.jsonl line
	maxImage      = 8 << 20  // one image file
	maxImageTotal = 64 << 20 // all images of the page
)

// Run is a task's run log as read from its directory.
type Run struct {
	Dir    string
	Events []Event
	// Problems are what could not be read (a missing or oversized image, a
	// file that is not an image); the page shows them rather than failing.
	Problems []string
}

// Event is one run-log line: the event and its images, loaded.
type Event struct {
	engine.Event
	Images []Image
}

// Image is one saved camera or tool-result image, ready to inline.
type Image struct {
	File   string
	Camera string
	MIME   string
	Width  int
	Height int
	data   []byte
}

// logLine is the run log's line format (engine/runlog.go).
type logLine struct {
	engine.Event
	ImageFiles  []string `json:"image_files,omitempty"`
	ImageErrors []string `json:"image_errors,omitempty"`
}

// Load reads dir/events.jsonl and the images its lines name. A line that is
// not a valid event is an error naming the line; an image that cannot be
// embedded is a Problem.
func Load(dir string) (*Run, error) {
	f, err := os.Open(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("run directory %s: %w", dir, err)
	}
	defer f.Close()
	r := &Run{Dir: dir}
	total := 0
	rd := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		line, err := readLine(rd)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %w", f.Name(), n, err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var ll logLine
		if err := json.Unmarshal(line, &ll); err != nil {
			return nil, fmt.Errorf("%s line %d: not an event: %w", f.Name(), n, err)
		}
		if ll.Kind == "" {
			return nil, fmt.Errorf("%s line %d: an event without a kind", f.Name(), n)
		}
		ev := Event{Event: ll.Event}
		for _, e := range ll.ImageErrors {
			r.Problems = append(r.Problems, fmt.Sprintf("turn %d: %s", ll.Turn, e))
		}
		for i, name := range ll.ImageFiles {
			img, err := loadImage(dir, name, &total)
			if err != nil {
				r.Problems = append(r.Problems, fmt.Sprintf("turn %d: %v", ll.Turn, err))
				continue
			}
			meta := imageMeta(ll.Event, i)
			img.Camera, img.Width, img.Height = meta.Camera, meta.Width, meta.Height
			ev.Images = append(ev.Images, img)
		}
		r.Events = append(r.Events, ev)
	}
	if len(r.Events) == 0 {
		return nil, fmt.Errorf("%s: no events", f.Name())
	}
	return r, nil
}

// readLine reads one line of at most maxLine bytes.
func readLine(rd *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := rd.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxLine {
			return nil, fmt.Errorf("longer than %d bytes", maxLine)
		}
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}

// imageMeta finds the i-th image's camera and size in the event (the
// observation's images, in the order the run log saved them); a
// tool-result image has none in the log.
func imageMeta(ev engine.Event, i int) schema.Image {
	if ev.Observation != nil && i < len(ev.Observation.Images) {
		return ev.Observation.Images[i]
	}
	return schema.Image{}
}

// loadImage reads one image named by the run log. The name must be a plain
// file in the run directory, the bytes must sniff as an image type a
// browser shows inline, and the sizes are bounded.
func loadImage(dir, name string, total *int) (Image, error) {
	if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		return Image{}, fmt.Errorf("image %q: not a file name in the run directory", name)
	}
	p := filepath.Join(dir, name)
	st, err := os.Lstat(p)
	switch {
	case err != nil:
		return Image{}, fmt.Errorf("image %s: %w", name, err)
	case !st.Mode().IsRegular():
		return Image{}, fmt.Errorf("image %s: not a regular file", name)
	case st.Size() > maxImage:
		return Image{}, fmt.Errorf("image %s: %d bytes, more than %d", name, st.Size(), maxImage)
	case *total+int(st.Size()) > maxImageTotal:
		return Image{}, fmt.Errorf("image %s: the page's images would exceed %d bytes", name, maxImageTotal)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return Image{}, fmt.Errorf("image %s: %w", name, err)
	}
	mime := http.DetectContentType(b)
	switch mime {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
	default:
		return Image{}, fmt.Errorf("image %s: content is %s, not an image", name, mime)
	}
	*total += len(b)
	return Image{File: name, MIME: mime, data: b}, nil
}

// DataURI is the image inline: data:MIME;base64,...
func (im Image) DataURI() string {
	return "data:" + im.MIME + ";base64," + base64.StdEncoding.EncodeToString(im.data)
}
