package runlog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/readfile"
)

// This file makes a run log a self-contained episode: every model call of
// every purpose becomes an EventModelCall (what a replay feeds back), and the
// task_start event carries an EpisodeInfo (which spec and which back-end
// command lines, the simulator's seed among them, produced the run).

// EventModelCall records one model call's purpose and full response. It is
// for the integrator (run log, replay); the terminal trace does not print it,
// and an evaluate call's response never reaches the acting model.
const EventModelCall EventKind = "model_call"

// ModelCall is the payload of EventModelCall: the response as the provider
// gave it. Its strings pass the run log's redaction like every event's.
type ModelCall struct {
	Purpose model.Purpose `json:"purpose"`
	// Model is the provider (and model name) that answered.
	Model     string         `json:"model,omitempty"`
	Text      string         `json:"text,omitempty"`
	Reasoning string         `json:"reasoning,omitempty"`
	ToolCalls []RecordedCall `json:"tool_calls,omitempty"`
	Usage     model.Usage    `json:"usage"`
	// Error is set when the call failed (nothing else is then).
	Error string `json:"error,omitempty"`
	// Start and Duration time the call for live sinks (metrics, traces);
	// they are not written, so a recorded run stays byte-stable.
	Start    time.Time     `json:"-"`
	Duration time.Duration `json:"-"`
}

// RecordedCall is one tool call of a recorded response. Arguments is the
// argument text as the model wrote it: JSON text, so it is redacted as the
// strings and numbers a JSON reader decodes from it (an escape such as
// \u0037 hides no secret), valid JSON staying valid.
// WireName is the alias the provider saw for a tool name it would refuse;
// Extra is provider data the call must carry back (Gemini's thought
// signature), kept so a replayed history is the one the provider made.
type RecordedCall struct {
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name"`
	WireName  string          `json:"wire_name,omitempty"`
	Arguments string          `json:"arguments" redact:"json"`
	Extra     json.RawMessage `json:"extra,omitempty"`
}

// NewModelCall records a response.
func NewModelCall(p model.Purpose, name string, resp model.Response) ModelCall {
	mc := ModelCall{Purpose: p, Model: name, Text: resp.Text, Reasoning: resp.Reasoning, Usage: resp.Usage}
	for _, c := range resp.ToolCalls {
		mc.ToolCalls = append(mc.ToolCalls, RecordedCall{ID: c.ID, Name: c.Name, WireName: c.WireName, Arguments: c.RawArguments(), Extra: c.Extra})
	}
	return mc
}

// Response is the recorded response as a provider returns it.
func (mc ModelCall) Response() model.Response {
	r := model.Response{Text: mc.Text, Reasoning: mc.Reasoning, Usage: mc.Usage}
	for _, c := range mc.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, model.ToolCall{ID: c.ID, Name: c.Name, WireName: c.WireName, Arguments: model.ArgumentsFromText(c.Arguments), Extra: c.Extra})
	}
	return r
}

// EpisodeInfo says what produced a run, beside the instruction: it rides on
// the task_start event.
type EpisodeInfo struct {
	// SpecDigest is "sha256:" and the hex SHA-256 of the spec files' contents,
	// in load order (see SpecDigest).
	SpecDigest string `json:"spec_digest"`
	// SpecFiles are the spec files' base names, in load order.
	SpecFiles []string `json:"spec_files,omitempty"`
	// Toolsets are the command lines of the session's subprocess toolsets.
	Toolsets map[string][]string `json:"toolsets,omitempty"`
	// Seed is the value of the first --seed argument of those command lines
	// (the simulator's seed), if any.
	Seed string `json:"seed,omitempty"`
	// Format is the run log's format version (Format); absent in run logs
	// written before it was recorded.
	Format int `json:"format,omitempty"`
}

// SpecDigest hashes the spec files' contents in order; each file's length
// prefixes it so that moving text between files changes the digest. The
// files are read as the spec loader reads them; the callers have no
// context, and the one reader refuses anything but a regular file within
// the spec-file limit, so the read cannot wait.
func SpecDigest(files []string) (string, error) {
	hash := sha256.New()
	for _, f := range files {
		b, err := readfile.Read(context.Background(), f, readfile.Spec)
		if err != nil {
			return "", fmt.Errorf("spec digest: %w", err)
		}
		fmt.Fprintf(hash, "%d\n", len(b))
		hash.Write(b)
	}
	return "sha256:" + hex.EncodeToString(hash.Sum(nil)), nil
}

// SeedArg returns the value of the first --seed (or --seed=N) argument of
// a command line.
func SeedArg(cmd []string) (string, bool) {
	for i, a := range cmd {
		if a == "--seed" && i+1 < len(cmd) {
			return cmd[i+1], true
		}
		if v, ok := strings.CutPrefix(a, "--seed="); ok {
			return v, true
		}
	}
	return "", false
}
