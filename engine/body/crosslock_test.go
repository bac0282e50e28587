package body

import (
	"os"
	"testing"

	"github.com/gofrs/flock"

	"github.com/thea-harness/thea/schema"
)

// A refusal names the process holding the body from the note it left; a
// note not written yet (the other process took the lock a moment ago) or
// missing reads "unknown pid", never "()".
func TestCrossLockOwnerNote(t *testing.T) {
	x := newCrossLock(schema.Embodiment{Name: "dog", Lock: schema.BodyLock{Mode: "refuse", Dir: t.TempDir()}})
	other := flock.New(x.path)
	if ok, err := other.TryLock(); err != nil || !ok {
		t.Fatalf("taking the lock: %v %v", ok, err)
	}
	t.Cleanup(func() { _ = other.Unlock() })
	for note, want := range map[string]string{"": "unknown pid", " \n": "unknown pid", "pid 7 since 10:00:00\n": "pid 7 since 10:00:00"} {
		if err := os.WriteFile(x.path+".owner", []byte(note), 0o644); err != nil {
			t.Fatal(err)
		}
		err := x.acquire(t.Context())
		if err == nil || err.Error() != "another process ("+want+") is driving this body (lock "+x.path+", embodiment.lock.mode refuse): wait for it to finish or stop it" {
			t.Errorf("note %q: %v", note, err)
		}
	}
	if err := os.Remove(x.path + ".owner"); err != nil {
		t.Fatal(err)
	}
	if got := x.owner(); got != "unknown pid" {
		t.Errorf("no note: %q", got)
	}
}
