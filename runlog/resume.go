package runlog

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// Safety kinds of a resumed task (see engine's resume): the task's run log
// continues in the same file, and these say where and what happened.
const (
	// SafetyResumed opens the events a resumed process appends: the turn
	// it continues after, the spec's digest then and now, what the model
	// is told.
	SafetyResumed SafetyKind = "resumed"
	// SafetyMayHaveRun: a physical call began (its tool_call event) and the
	// process ended before its result: it may or may not have run. It is
	// never run again by the harness.
	SafetyMayHaveRun SafetyKind = "may_have_run"
)

// RepairTail drops a torn last line of dir's run log (a process killed in
// the middle of a write), so appended events start on a line of their own
// and every reader reads whole lines. It returns the bytes it dropped.
func RepairTail(dir string) (int, error) {
	path := filepath.Join(dir, EventsFile)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("run log: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("run log: %w", err)
	}
	size := st.Size()
	if size == 0 {
		return 0, nil
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, size-1); err != nil {
		return 0, fmt.Errorf("run log: %w", err)
	}
	if last[0] == '\n' {
		return 0, nil
	}
	// Back from the end, a chunk at a time, to the last line end (or the
	// file's start: a torn first line).
	keep := int64(0)
	buf := make([]byte, 64<<10)
	for end := size; end > 0; {
		from := max(0, end-int64(len(buf)))
		chunk := buf[:end-from]
		if _, err := f.ReadAt(chunk, from); err != nil {
			return 0, fmt.Errorf("run log: %w", err)
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			keep = from + int64(i) + 1
			break
		}
		end = from
	}
	if err := f.Truncate(keep); err != nil {
		return 0, fmt.Errorf("run log: %w", err)
	}
	return int(size - keep), nil
}
