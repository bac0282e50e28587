package report

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// maxImageTotal bounds all images of the page together; one image and the
// run log are bounded by the one reader (readfile.RunLogImage, RunLog).
const maxImageTotal = 64 << 20

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
	runlog.Event
	Images []Image
	// Line is the event's line in events.jsonl.
	Line int
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

// Load reads dir/events.jsonl and the images its lines name, through the
// one reader: regular files inside the run directory (a symlink must not
// lead out of it), the run log line by line within its limits, and a done
// ctx ends the read. A line that is not a valid event is an error naming
// the line; an image that cannot be embedded is a Problem.
func Load(ctx context.Context, dir string) (*Run, error) {
	root, err := readfile.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("run directory %s: %w", dir, err)
	}
	defer root.Close()
	r := &Run{Dir: dir}
	total := 0
	for rec, err := range runlog.Read(ctx, root, runlog.EventsFile, readfile.RunLog) {
		if err != nil {
			return nil, fmt.Errorf("run directory %s: %w", dir, err)
		}
		ll, err := rec.Line()
		if err != nil {
			return nil, err
		}
		ev := Event{Event: ll.Event, Line: rec.N}
		for _, e := range ll.ImageErrors {
			r.Problems = append(r.Problems, fmt.Sprintf("turn %d: %s", ll.Turn, e))
		}
		for i, img := range ll.ImageFiles {
			im, err := loadImage(ctx, root, img, &total)
			if err != nil {
				r.Problems = append(r.Problems, fmt.Sprintf("turn %d: %v", ll.Turn, err))
				continue
			}
			meta := imageMeta(ll.Event, i)
			im.Camera, im.Width, im.Height = meta.Camera, meta.Width, meta.Height
			ev.Images = append(ev.Images, im)
		}
		r.Events = append(r.Events, ev)
	}
	if len(r.Events) == 0 {
		return nil, fmt.Errorf("%s: no events", filepath.Join(dir, runlog.EventsFile))
	}
	return r, nil
}

// imageMeta finds the i-th image's camera and size in the event (the
// observation's images, in the order the run log saved them); a
// tool-result image has none in the log.
func imageMeta(ev runlog.Event, i int) world.Image {
	if ev.Observation != nil && i < len(ev.Observation.Images) {
		return ev.Observation.Images[i]
	}
	return world.Image{}
}

// loadImage reads one image named by the run log. The name must be a plain
// file in the run directory, the bytes must sniff as an image type a
// browser shows inline, and the sizes are bounded.
func loadImage(ctx context.Context, root *os.Root, name string, total *int) (Image, error) {
	if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		return Image{}, fmt.Errorf("image %q: not a file name in the run directory", name)
	}
	if *total >= maxImageTotal {
		return Image{}, fmt.Errorf("image %s: the page's images would exceed %d bytes", name, maxImageTotal)
	}
	b, err := readfile.ReadIn(ctx, root, name, readfile.RunLogImage)
	if err != nil {
		return Image{}, fmt.Errorf("image %s: %w", name, err)
	}
	if *total+len(b) > maxImageTotal {
		return Image{}, fmt.Errorf("image %s: the page's images would exceed %d bytes", name, maxImageTotal)
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
