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

	"github.com/thea-harness/thea/internal/outfile"
	"github.com/thea-harness/thea/toolsets/rosbridge"
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
// and writes nothing when the graph cannot be read.
func FromROS(ctx context.Context, o FromROSOptions) (Drafted, error) {
	if !validName.MatchString(o.Name) {
		return Drafted{}, fmt.Errorf("robot name %q: use lower-case letters, digits, '-' and '_', starting with a letter", o.Name)
	}
	if !strings.HasPrefix(o.URL, "ws://") && !strings.HasPrefix(o.URL, "wss://") {
		return Drafted{}, fmt.Errorf("--from-ros %q: give rosbridge_server's ws:// or wss:// address (ws://robot.local:9090)", o.URL)
	}
	if err := o.writable(); err != nil {
		return Drafted{}, err
	}
	var header http.Header
	if o.TokenEnv != "" {
		tok, ok := os.LookupEnv(o.TokenEnv)
		if !ok {
			return Drafted{}, fmt.Errorf("--token-env %s: the variable is not set", o.TokenEnv)
		}
		header = http.Header{"Authorization": {"Bearer " + tok}}
	}
	g, err := rosbridge.ReadGraph(ctx, o.URL, header)
	if err != nil {
		return Drafted{}, fmt.Errorf("reading the graph at %s: %w", o.URL, err)
	}
	window := o.SampleWindow
	if window == 0 {
		window = DefaultSampleWindow
	}
	msgs, err := rosbridge.SampleTopics(ctx, o.URL, header, sampleRequests(g), window)
	if err != nil {
		return Drafted{}, fmt.Errorf("sampling the graph's topics at %s: %w", o.URL, err)
	}
	d := newDraft(o.Name, o.URL, o.TokenEnv, g, readSamples(g.Topics, msgs))
	spec, err := d.cue()
	if err != nil {
		return Drafted{}, err
	}
	out := Drafted{Tools: len(d.Tools), Cameras: len(d.Cameras), Readings: len(d.Readings),
		Review: strings.Count(string(spec), "// REVIEW:"), Perception: d.Perception.summary()}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return Drafted{}, fmt.Errorf("folder %s: %w", o.Dir, err)
	}
	for name, b := range map[string][]byte{"spec.cue": spec, "episode.yaml": []byte(draftEpisode)} {
		if err := outfile.Write(filepath.Join(o.Dir, name), b, 0o644); err != nil {
			return Drafted{}, err
		}
	}
	out.Files = draftFiles
	return out, nil
}

// writable refuses a folder that is not one, and files of the draft that
// exist, unless Force.
func (o FromROSOptions) writable() error {
	if o.Dir == "" {
		return errors.New("no folder given")
	}
	if err := outfile.CheckDir(o.Dir); err != nil {
		return err
	}
	for _, f := range draftFiles {
		path := filepath.Join(o.Dir, f)
		_, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return fmt.Errorf("%s: %w", path, err)
		case !o.Force:
			return fmt.Errorf("%s exists: refusing to overwrite it (--force replaces it)", path)
		default:
			if err := outfile.Check(path); err != nil {
				return err
			}
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
