package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/thea-harness/thea/engine/lifetimes"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/scenegraph"
	"github.com/thea-harness/thea/internal/outfile"
	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/runlog"
)

// A session checkpoint is what a task needs to continue in another process
// after this one ended without finishing it (a crash, kill -9, an upgrade):
// written beside the run log at the start of the task and after every
// turn, atomically (a temporary file, synced, renamed over the last), so a
// reader finds the previous whole checkpoint or the new one, never half.
// Its format is docs/formats/checkpoint.md; resume.go reads it.

// CheckpointFile is the checkpoint's file in a run directory.
const CheckpointFile = "checkpoint.json"

// CheckpointVersion is the checkpoint format this build writes and reads.
const CheckpointVersion = 1

// Checkpoint is one task's state after a whole turn.
type Checkpoint struct {
	Version int       `json:"version"`
	Written time.Time `json:"written"`
	// SpecDigest identifies the spec the task ran under (runlog.SpecDigest);
	// a resume compares it with the spec loaded then.
	SpecDigest  string `json:"spec_digest"`
	Instruction string `json:"instruction"`
	// Task is the task's number in its session; Turn the turns it has
	// completed (0: none yet); Clock the session's turn clock (the Scene
	// Graph's and Accumulated context's groups).
	Task  int `json:"task"`
	Turn  int `json:"turn"`
	Clock int `json:"clock"`
	// The failure budgets' and the loop detector's counters, and the
	// acting model's usage so far.
	Consecutive int             `json:"consecutive"`
	Total       int             `json:"total"`
	Format      int             `json:"format"`
	Usage       model.Usage     `json:"usage"`
	Loop        CheckpointLoop  `json:"loop"`
	Notes       CheckpointNotes `json:"notes"`
	// Skills are the skill bodies loaded during the task.
	Skills      []CheckpointSkill     `json:"skills,omitempty"`
	Accumulated []lifetimes.KeptEntry `json:"accumulated"`
	Scene       scenegraph.Snapshot   `json:"scene"`
}

// CheckpointLoop is the loop detector's streak (the observation it was
// decided on is not kept: the next repetition starts a new comparison).
type CheckpointLoop struct {
	Key     string `json:"key,omitempty"`
	Failure string `json:"failure,omitempty"`
	Failed  bool   `json:"failed,omitempty"`
	Repeats int    `json:"repeats,omitempty"`
}

// CheckpointNotes are the task's Task Notes.
type CheckpointNotes struct {
	Goal     string           `json:"goal"`
	Phase    string           `json:"phase"`
	Timeline []CheckpointNote `json:"timeline"`
}

// CheckpointNote is one timeline event; Tool and Failed are set for a
// tool result's.
type CheckpointNote struct {
	Turn   int    `json:"turn"`
	Text   string `json:"text"`
	Tool   string `json:"tool,omitempty"`
	Failed bool   `json:"failed,omitempty"`
}

// CheckpointSkill is a skill body loaded during the task.
type CheckpointSkill struct {
	Name string `json:"name"`
	Body string `json:"body"`
}

// checkpoint writes the task's checkpoint into its run directory (none
// without a run log, or once the run log lost an event: a resume reads
// both). A failure is logged, and told once to the consumer and the other
// sinks as a sink error; the task goes on, and the next turn tries again.
func (h *Harness) checkpoint(t *task) {
	if t.runDir == "" {
		return
	}
	for _, s := range t.sinks {
		if s.name == "run log" && s.failed {
			return
		}
	}
	err := h.writeCheckpoint(t)
	if err == nil {
		return
	}
	h.log.Error("checkpoint", "turn", t.turn, "err", err)
	if !t.cp.reported {
		t.cp.reported = true
		h.emit(t, runlog.Event{Kind: runlog.EventSinkError, Text: fmt.Sprintf("checkpoint after turn %d not written (a resume would continue from an earlier one; later turns try again): %v", t.turn, err)})
	}
}

// checkpointCache keeps the task's Task Notes timeline encoded (it only
// grows), so a turn's checkpoint encodes only its new events.
type checkpointCache struct {
	timeline []byte // the encoded events, comma-separated
	events   int
	buf      []byte
	reported bool // a failed write was told (once a task)
}

// checkpointHead is a Checkpoint as encoded before its growing parts
// (Task Notes, Accumulated context) are spliced in already encoded: the
// outer fields shadow the embedded ones and, nil, are left out.
type checkpointHead struct {
	Checkpoint
	Notes       *struct{} `json:"notes,omitempty"`
	Accumulated *struct{} `json:"accumulated,omitempty"`
}

func (h *Harness) writeCheckpoint(t *task) error {
	digest, err := runlog.SpecDigest(h.spec.Files)
	if err != nil {
		return fmt.Errorf("spec digest: %w", err)
	}
	c := &t.cp
	if len(t.notes.Timeline) < c.events {
		c.timeline, c.events = nil, 0
	}
	for _, e := range t.notes.Timeline[c.events:] {
		enc, err := json.Marshal(CheckpointNote{Turn: e.Turn, Text: e.Text, Tool: e.tool, Failed: e.failed})
		if err != nil {
			return fmt.Errorf("encode notes: %w", err)
		}
		if c.events > 0 {
			c.timeline = append(c.timeline, ',')
		}
		c.timeline = append(c.timeline, enc...)
		c.events++
	}
	head := checkpointHead{Checkpoint: Checkpoint{Version: CheckpointVersion, Written: h.clock().UTC(), SpecDigest: digest,
		Instruction: t.instruction, Task: t.n, Turn: t.turn, Clock: h.groupN,
		Consecutive: t.consecutive, Total: t.total, Format: t.format, Usage: t.usage,
		Loop: CheckpointLoop{Key: t.loop.key, Failure: t.loop.failure, Failed: t.loop.failed, Repeats: t.loop.repeats}}}
	h.hostMu.Lock()
	for _, s := range t.skills {
		head.Skills = append(head.Skills, CheckpointSkill{Name: s.name, Body: s.body})
	}
	head.Scene = h.scene.Snapshot()
	h.hostMu.Unlock()
	enc, err := json.Marshal(&head)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	goal, _ := json.Marshal(t.notes.Goal) // strings always encode
	phase, _ := json.Marshal(t.notes.Phase)
	b := append(c.buf[:0], enc[:len(enc)-1]...)
	b = append(b, `,"notes":{"goal":`...)
	b = append(append(b, goal...), `,"phase":`...)
	b = append(append(b, phase...), `,"timeline":[`...)
	b = append(append(b, c.timeline...), `]},"accumulated":`...)
	if b, err = h.store.AppendKeptJSON(b, h.redactor); err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	b = append(b, '}')
	c.buf = b
	// Redacted like every other exit: declared secrets, in every spelling.
	b = h.redactor.JSON(b)
	return outfile.Write(filepath.Join(t.runDir, CheckpointFile), b, 0o600)
}

// ErrNoCheckpoint: the run directory holds no checkpoint.
var ErrNoCheckpoint = errors.New("no checkpoint")

// ReadCheckpoint reads dir's checkpoint within the run log's bounds. A
// missing file is ErrNoCheckpoint; a checkpoint of another version, or
// one that is not whole, is an error naming the file and why.
func ReadCheckpoint(ctx context.Context, dir string) (*Checkpoint, error) {
	path := filepath.Join(dir, CheckpointFile)
	root, err := readfile.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("run directory %s: %w", dir, err)
	}
	defer root.Close()
	b, err := readfile.ReadIn(ctx, root, CheckpointFile, readfile.RunLog)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w (was the task started by a build that writes them, with a run log?)", path, ErrNoCheckpoint)
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	var cp Checkpoint
	if err := json.Unmarshal(b, &cp); err != nil {
		return nil, fmt.Errorf("%s: not a checkpoint: %w", path, err)
	}
	switch {
	case cp.Version != CheckpointVersion:
		return nil, fmt.Errorf("%s: version %d, this build reads version %d", path, cp.Version, CheckpointVersion)
	case cp.Task < 1 || cp.Turn < 0 || cp.Clock < cp.Turn:
		return nil, fmt.Errorf("%s: task %d, turn %d, clock %d: not a task's position", path, cp.Task, cp.Turn, cp.Clock)
	case cp.Instruction == "":
		return nil, fmt.Errorf("%s: no instruction", path)
	}
	return &cp, nil
}
