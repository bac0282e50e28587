package memory

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperEnv selects a helper mode when the test binary re-executes itself.
const helperEnv = "THEA_MEMORY_HELPER"

// TestHelperProcess is not a test: it is the child side of the process
// tests, run only when helperEnv is set.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return
	}
	dir := os.Getenv("HELPER_DIR")
	switch mode {
	case "write":
		id := os.Getenv("HELPER_ID")
		n, _ := strconv.Atoi(os.Getenv("HELPER_N"))
		// Start together with the sibling, so the writes interleave.
		for {
			if _, err := os.Stat(filepath.Join(dir, "go")); err == nil {
				break
			}
			time.Sleep(time.Millisecond)
		}
		cfg := Config{Dir: filepath.Join(dir, "mem"), Threshold: 0.5}
		for i := range n {
			m := &fakeModel{answers: []any{fmt.Sprintf(`{"candidates":[
				{"scope":"memory","entry":"process %s fact %d","confidence":0.9},
				{"scope":"tool","tool":"pick_up","entry":"process %s lesson %d","confidence":0.8}]}`, id, i, id, i)}}
			res, err := Consolidate(t.Context(), m, cfg, Input{Tools: []string{"pick_up"}, Task: "p" + id})
			if err != nil || res.Rejected != "" || len(res.Written) != 2 {
				fmt.Fprintf(os.Stderr, "helper %s step %d: %+v %v\n", id, i, res, err)
				os.Exit(2)
			}
		}
		os.Exit(0)
	case "crash":
		s, err := NewStore(Config{Dir: dir})
		if err != nil {
			os.Exit(2)
		}
		s.beforeRename = func(string, string) error {
			// Die for real between the synced temp file and the rename.
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
		_, err = s.Append(t.Context(), "", []Entry{{Text: "second, never committed", Confidence: 0.9}})
		fmt.Fprintf(os.Stderr, "helper crash: survived the kill: %v\n", err)
		os.Exit(3)
	default:
		fmt.Fprintf(os.Stderr, "unknown helper mode %q\n", mode)
		os.Exit(2)
	}
}

func helper(t *testing.T, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	return cmd
}

// Two OS processes consolidating into one directory at once lose nothing:
// each writes 50 distinct entries to MEMORY.md and 50 to one tool file.
func TestTwoProcessesLoseNothing(t *testing.T) {
	dir := t.TempDir()
	const n = 50
	var cmds []*exec.Cmd
	for _, id := range []string{"A", "B"} {
		c := helper(t, helperEnv+"=write", "HELPER_DIR="+dir, "HELPER_ID="+id, "HELPER_N="+strconv.Itoa(n))
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("helper: %v", err)
		}
	}
	mem := filepath.Join(dir, "mem")
	for file, what := range map[string]string{filepath.Join(mem, MemoryFile): "fact", expPath(mem, "pick_up"): "lesson"} {
		got := texts(entriesOf(t, file))
		var want []string
		for _, id := range []string{"A", "B"} {
			for i := range n {
				want = append(want, fmt.Sprintf("process %s %s %d", id, what, i))
			}
		}
		if len(got) != 2*n {
			t.Errorf("%s: %d entries, want %d", file, len(got), 2*n)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: entries differ from the %d written", file, 2*n)
		}
		// Each process's own entries keep their order.
		order := texts(entriesOf(t, file))
		for _, id := range []string{"A", "B"} {
			var mine []string
			for _, e := range order {
				if strings.HasPrefix(e, "process "+id) {
					mine = append(mine, e)
				}
			}
			if !slices.IsSortedFunc(mine, func(a, b string) int { return numSuffix(a) - numSuffix(b) }) {
				t.Errorf("%s: process %s's entries out of order", file, id)
			}
		}
	}
	assertNoTemps(t, mem)
}

func numSuffix(s string) int {
	n, _ := strconv.Atoi(s[strings.LastIndexByte(s, ' ')+1:])
	return n
}

// A process killed between writing the synced temp file and renaming it
// leaves the old file whole; the next writer removes the orphan temp file.
func TestKilledBeforeRenameKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	s, err := NewStore(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(t.Context(), "", []Entry{{Text: "first", Confidence: 0.9, Date: day}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, MemoryFile)
	before := readFile(t, path)

	err = helper(t, helperEnv+"=crash", "HELPER_DIR="+dir).Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("helper did not die by SIGKILL: %v", err)
	}
	if got := readFile(t, path); got != before {
		t.Fatalf("old file not whole after the crash:\n%s", got)
	}
	temps, err := filepath.Glob(filepath.Join(dir, "."+MemoryFile+".tmp-*"))
	if err != nil || len(temps) != 1 || !strings.Contains(readFile(t, temps[0]), "second, never committed") {
		t.Fatalf("want the crashed writer's synced temp file, got %v %v", temps, err)
	}
	if _, err := s.Append(t.Context(), "", []Entry{{Text: "third", Confidence: 0.9, Date: day}}); err != nil {
		t.Fatal(err)
	}
	if got := texts(entriesOf(t, path)); strings.Join(got, "|") != "first|third" {
		t.Fatalf("entries %q", got)
	}
	assertNoTemps(t, dir)
}
