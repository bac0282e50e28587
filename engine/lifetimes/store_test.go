package lifetimes

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
)

// fill appends history's turns through the exported API, as the engine's
// turn does.
func fill(s *Store, turns int) {
	for _, e := range history(turns, 100) {
		s.Append(Entry{Kind: e.kind, Group: e.group, Msg: e.msg, Reasoning: e.reasoning, Pending: e.pending})
	}
}

func requestJSON(t *testing.T, s *Store) string {
	t.Helper()
	b, err := json.Marshal(s.Request())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// What the engine's preview relies on: a saved Accumulated context comes
// back whole, its estimate with it.
func TestStoreSaveAndRestoreAccumulated(t *testing.T) {
	var s Store
	s.SetResident("system", nil)
	fill(&s, 3)
	s.SetBrief("Scene Graph Brief")
	before, counts := requestJSON(t, &s), s.Counts()
	saved := s.SaveAccumulated()
	s.Append(Entry{Kind: KindInstruction, Group: 4, Msg: userText("Instruction: more")})
	if s.Counts() == counts {
		t.Fatal("appending did not change the estimate")
	}
	s.RestoreAccumulated(saved)
	if got := requestJSON(t, &s); got != before || s.Counts() != counts {
		t.Fatalf("restored request differs:\n%s\nwant\n%s", got, before)
	}
}

// Store.Compact installs the compacted context on success and leaves the
// context as it was on failure.
func TestStoreCompact(t *testing.T) {
	var s Store
	s.SetResident("system", nil)
	fill(&s, 10)
	before, total := requestJSON(t, &s), s.Total()
	failing := NewCompactor(budget(), &summariser{answer: func(int, string, string) (model.Response, error) {
		return model.Response{}, errors.New("unavailable")
	}}, "m")
	if _, err := s.Compact(t.Context(), &failing, 11); err == nil {
		t.Fatal("a failed summary compacted")
	}
	if got := requestJSON(t, &s); got != before || s.Total() != total {
		t.Fatal("a failed compaction changed the context")
	}
	c := NewCompactor(budget(), &summariser{answer: fixed("ten moves")}, "m")
	info, err := s.Compact(t.Context(), &c, 11)
	if err != nil || !info.OK {
		t.Fatalf("compaction: %v %+v", err, info)
	}
	req := s.Request()
	if cp := req.Messages[1]; cp.Meta["kind"] != runlog.CheckpointKind || s.Total() >= total {
		t.Fatalf("after compaction: second message %+v, total %d (was %d)", cp, s.Total(), total)
	}
	if len(req.Messages) != 1+info.MessagesAfter {
		t.Fatalf("%d messages, want the Resident one and %d", len(req.Messages), info.MessagesAfter)
	}
}
