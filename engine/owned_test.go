package engine_test

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
)

// ownedLog records the order in which owned resources are closed, and how
// many toolsets were closed when each one was.
type ownedLog struct {
	f     *fixture
	order []string
}

type ownedRes struct {
	name  string
	log   *ownedLog
	err   error
	panic bool
}

func (r *ownedRes) Close() error {
	r.log.order = append(r.log.order, r.name)
	if r.log.f.closes.Load() != 1 {
		r.log.order = append(r.log.order, "(before the toolset)")
	}
	if r.panic {
		panic("close bug")
	}
	return r.err
}

// Close releases the owned resources after the toolsets, the last given
// first, each once even when one fails or panics; every failure is in the
// joined error, which a second Close returns again without closing anything.
func TestCloseReleasesOwnedResourcesInReverseOnce(t *testing.T) {
	f := newFixture(t, toolResp("x"))
	log := &ownedLog{f: f}
	failA, failC := errors.New("flush failed"), errors.New("socket refused")
	opts := f.options(t)
	opts.Owned = []io.Closer{
		&ownedRes{name: "a", log: log, err: failA},
		&ownedRes{name: "b", log: log, panic: true},
		nil, // a nil slot is skipped, not a panic
		&ownedRes{name: "c", log: log, err: failC},
		&ownedRes{name: "d", log: log},
	}
	h, err := engine.New(t.Context(), f.spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(log.order) != 0 {
		t.Fatalf("owned resources closed before Close: %v", log.order)
	}
	err1 := h.Close()
	if want := []string{"d", "c", "b", "a"}; !slices.Equal(log.order, want) {
		t.Fatalf("close order = %v, want %v, each after the toolsets", log.order, want)
	}
	if !errors.Is(err1, failA) || !errors.Is(err1, failC) || !strings.Contains(err1.Error(), "panicked: close bug") {
		t.Fatalf("Close = %v: want a's and c's errors and b's panic, joined", err1)
	}
	err2 := h.Close()
	if err2 == nil || err2.Error() != err1.Error() {
		t.Fatalf("second Close = %v, want the first call's error %v", err2, err1)
	}
	if len(log.order) != 4 || f.closes.Load() != 1 {
		t.Fatalf("after a second Close: owned closes %v, toolset closes %d; want each closed once", log.order, f.closes.Load())
	}
}

// A New that fails releases what it was handed: the caller holds no
// Harness to close.
func TestNewReleasesOwnedResourcesWhenItFails(t *testing.T) {
	f := newFixture(t, toolResp("x"))
	log := &ownedLog{f: f}
	f.spec.Loop.Stages = append(f.spec.Loop.Stages, "no_such_stage")
	opts := f.options(t)
	opts.Owned = []io.Closer{&ownedRes{name: "a", log: log}, &ownedRes{name: "b", log: log}}
	if _, err := engine.New(t.Context(), f.spec, opts); err == nil || !strings.Contains(err.Error(), "no_such_stage") {
		t.Fatalf("New = %v, want the unknown stage's error", err)
	}
	if want := []string{"b", "a"}; !slices.Equal(log.order, want) {
		t.Fatalf("owned closes after a failed New = %v, want %v", log.order, want)
	}
}

// A spec naming skill folders in a session that cannot load skills fails to
// start, naming the field: the skills are not silently absent.
func TestSkillFoldersWithoutALoaderFail(t *testing.T) {
	f := newFixture(t, toolResp("x"))
	f.spec.Skills.Dirs = []string{"skills"}
	if _, err := engine.New(t.Context(), f.spec, f.options(t)); err == nil || !strings.Contains(err.Error(), "skills.dirs") {
		t.Fatalf("New = %v, want an error at skills.dirs", err)
	}
}
