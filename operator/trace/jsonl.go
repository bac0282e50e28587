package trace

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
)

// JSONL writes each event as one line of JSON: the raw stream for programs
// (`thea run --json`). Events arrive already redacted by the bus; images
// are not part of an event's JSON.
type JSONL struct {
	enc *json.Encoder
}

var _ engine.Sink = (*JSONL)(nil)

// NewJSONL returns a JSONL sink writing to w.
func NewJSONL(w io.Writer) *JSONL { return &JSONL{enc: json.NewEncoder(w)} }

// Write implements engine.Sink.
func (j *JSONL) Write(ev runlog.Event) error {
	if err := j.enc.Encode(ev); err != nil {
		return fmt.Errorf("writing event %s: %w", ev.Kind, err)
	}
	return nil
}

// Close implements engine.Sink.
func (j *JSONL) Close() error { return nil }
