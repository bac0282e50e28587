package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofrs/flock"
)

// An evaluation whose body lock is held by another process (a second shard
// on the same machine) under embodiment.lock.mode refuse stops with a
// message naming the lock and what to change, instead of counting the
// refused seeds as the robot's failures.
func TestEvalRefusedByTheBodyLockSaysSo(t *testing.T) {
	spec := householdCopy(t)
	locks := t.TempDir()
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	old := "embodiment: #embodiments.household_sim"
	if !strings.Contains(string(b), old) {
		t.Fatalf("spec.cue no longer has %q", old)
	}
	src := strings.Replace(string(b), old, old+` & {lock: {mode: "refuse", dir: "`+locks+`"}}`, 1)
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// Another shard holds the body: its own lock on the file (a separate
	// open file, as another process has), and the note it leaves.
	path := filepath.Join(locks, "thea-body-household-sim.lock")
	other := flock.New(path)
	if ok, err := other.TryLock(); err != nil || !ok {
		t.Fatalf("taking the lock: %v %v", ok, err)
	}
	t.Cleanup(func() { _ = other.Unlock() })
	if err := os.WriteFile(path+".owner", []byte("pid 4242 since 10:31:02"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := thea(t, "eval", "--spec", spec, "--episodes", "3", "--parallel", "2")
	for _, want := range []string{": a physical call was refused by the body lock, not by the robot", path, "pid 4242", "embodiment.lock.mode: wait"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	if code != 1 || strings.Contains(out, "FAIL") || strings.Contains(errs, " FAIL ") {
		t.Errorf("exit %d, want 1 and no seed counted as failed\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	// Released, the same evaluation runs.
	if err := other.Unlock(); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := thea(t, "eval", "--spec", spec, "--episodes", "1"); code != 0 || !strings.Contains(out, "1/1 succeeded") {
		t.Fatalf("after release: exit %d\n%s\n%s", code, out, errs)
	}
}
