package scaffold

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/internal/outfile"
	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/toolsets/rosbridge/graph"
)

// FromROSOptions say what to draft from a live ROS 2 graph.
type FromROSOptions struct {
	// Name is the robot's name (as Options.Name).
	Name string
	// URL is rosbridge_server's ws:// or wss:// address.
	URL string
	// TokenEnv names the variable of a bearer token for a proxy in front
	// of rosbridge; the draft declares it too.
	TokenEnv string
	// Dir is the folder the draft's files are written into (created when
	// missing).
	Dir string
	// Force replaces files of an earlier draft.
	Force bool
	// SampleWindow bounds how long a few messages of the TF, joint state,
	// detection and Bool topics are read (frames, the gripper's joint, a
	// Bool's value now); 0 is DefaultSampleWindow.
	SampleWindow time.Duration
}

// DefaultSampleWindow is how long a draft waits for the topics it samples.
const DefaultSampleWindow = 3 * time.Second

// Drafted is what FromROS wrote and found.
type Drafted struct {
	Files []string // relative to Dir
	// Tools, Cameras, Readings count what was drafted; Review counts the
	// REVIEW lines.
	Tools, Cameras, Readings, Review int
	// Perception names what the observation reads beside cameras ("pose
	// from TF", "joints", "detections /detections", "held").
	Perception []string
}

// draftFiles are the files a draft writes.
var draftFiles = []string{"spec.cue", "episode.yaml"}

// FromROS reads the graph behind o.URL through rosapi and writes a spec
// draft that validates (spec.cue) and the scripted model it names
// (episode.yaml). It refuses to replace an existing file unless o.Force,
// and writes nothing when the graph cannot be read. What it reads of the
// graph, and its errors, never hold the --token-env token (rosredact.go).
func FromROS(ctx context.Context, o FromROSOptions) (Drafted, error) {
	if !validName.MatchString(o.Name) {
		return Drafted{}, fmt.Errorf("robot name %q: use lower-case letters, digits, '-' and '_', starting with a letter", o.Name)
	}
	if !strings.HasPrefix(o.URL, "ws://") && !strings.HasPrefix(o.URL, "wss://") {
		return Drafted{}, fmt.Errorf("--from-ros %q: give rosbridge_server's ws:// or wss:// address (ws://robot.local:9090)", o.URL)
	}
	// Checked now, so a draft that cannot be written does not wait for
	// the graph first; writeDraft checks again as it writes.
	if err := o.writable(); err != nil {
		return Drafted{}, err
	}
	var header http.Header
	var tok string
	if o.TokenEnv != "" {
		var ok bool
		if tok, ok = os.LookupEnv(o.TokenEnv); !ok {
			return Drafted{}, fmt.Errorf("--token-env %s: the variable is not set", o.TokenEnv)
		}
		header = http.Header{"Authorization": {"Bearer " + tok}}
	}
	red := tokenRedactor(tok)
	g, err := graph.ReadGraph(ctx, o.URL, header)
	if err != nil {
		return Drafted{}, redactError(red, fmt.Errorf("reading the graph at %s: %w", o.URL, err))
	}
	g = redact.Value(red, g)
	window := o.SampleWindow
	if window == 0 {
		window = DefaultSampleWindow
	}
	msgs, err := graph.SampleTopics(ctx, o.URL, header, sampleRequests(g), window)
	if err != nil {
		return Drafted{}, redactError(red, fmt.Errorf("sampling the graph's topics at %s: %w", o.URL, err))
	}
	msgs = redact.Value(red, msgs)
	d := newDraft(o.Name, o.URL, o.TokenEnv, g, readSamples(g.Topics, msgs))
	spec, err := d.cue()
	if err == nil {
		err = checkSize(spec)
	}
	if err != nil {
		return Drafted{}, redactError(red, err)
	}
	out := Drafted{Tools: len(d.Tools), Cameras: len(d.Cameras), Readings: len(d.Readings),
		Review: strings.Count(string(spec), "// REVIEW:"), Perception: d.Perception.summary()}
	if err := o.writeDraft(map[string][]byte{"spec.cue": spec, "episode.yaml": []byte(draftEpisode)}); err != nil {
		return Drafted{}, err
	}
	out.Files = draftFiles
	return out, nil
}

// writeDraft writes the draft's files, each created only where nothing is
// (outfile.Create: a file made, or a link planted, while the graph was
// read is refused, never replaced or written through), or with Force over
// a regular file only. When one file fails, those written before it are
// removed: no half a draft is left.
func (o FromROSOptions) writeDraft(files map[string][]byte) error {
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return fmt.Errorf("folder %s: %w", o.Dir, err)
	}
	var written []string
	for _, name := range draftFiles {
		path := filepath.Join(o.Dir, name)
		var err error
		if o.Force {
			err = replaceRegular(path, files[name])
		} else {
			err = outfile.Create(path, files[name], 0o644)
		}
		if err != nil {
			for _, w := range written {
				err = errors.Join(err, os.Remove(w))
			}
			return err
		}
		written = append(written, path)
	}
	return nil
}

// replaceRegular writes path over a regular file or where nothing is; a
// symbolic link there (which a write would follow) is refused.
func replaceRegular(path string, b []byte) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return outfile.Create(path, b, 0o644)
	case err != nil:
		return fmt.Errorf("%s: %w", path, err)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is %s, not a regular file: refusing to replace it or write through it", path, readfile.ModeName(fi.Mode()))
	}
	return outfile.Write(path, b, 0o644)
}

// writable refuses a folder that is not one, and files of the draft that
// exist, unless Force (then only regular files).
func (o FromROSOptions) writable() error {
	if o.Dir == "" {
		return errors.New("no folder given")
	}
	if err := outfile.CheckDir(o.Dir); err != nil {
		return err
	}
	for _, f := range draftFiles {
		path := filepath.Join(o.Dir, f)
		fi, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return fmt.Errorf("%s: %w", path, err)
		case !o.Force:
			return fmt.Errorf("%s exists: refusing to overwrite it (--force replaces it)", path)
		case !fi.Mode().IsRegular():
			return fmt.Errorf("%s is %s, not a regular file: refusing to replace it or write through it", path, readfile.ModeName(fi.Mode()))
		}
	}
	return nil
}

// draftEpisode is the scripted model a draft names: it only answers, so
// the draft runs without a model service and moves nothing.
const draftEpisode = `# The scripted model of a spec drafted by ` + "`thea init --from-ros`" + ` (model.script in
# spec.cue): it answers without calling a tool, so a first run moves
# nothing. Replace the model in spec.cue with a real one once the spec is
# reviewed, or write the decisions of a task here (docs/formats/model-script.md).
- text: >-
    This robot's spec is a draft: I will not act until it is reviewed.
`
