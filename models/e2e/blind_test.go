package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/testutil"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// sightHook is a pre-hook that can pass only by reading the observation:
// it blocks pick_up unless the latest observation detected something (a
// missing observation fails closed, so it blocks too).
const sightHook = `{
		name:   "needs_the_observation"
		when:   "tool.name == 'pick_up'"
		action: "block"
		rule:   "len(observation.detections) == 0"
		reason: "Nothing detected: the hook saw no observation."
	}, {
		name:   "confirm_nothing"`

// householdWithSightHook is the household example with sightHook, and the
// scripted episode that plays its model.
func householdWithSightHook(t *testing.T) (*schema.Spec, model.Model) {
	t.Helper()
	path := testutil.ExampleCopy(t, filepath.Join("..", "..", "examples", "household", "spec.cue"))
	b, err := os.ReadFile(path)
	must(t, err)
	text := strings.Replace(string(b), "{\n\t\tname:   \"confirm_nothing\"", sightHook, 1)
	if text == string(b) {
		t.Fatal("the household spec has no confirm_nothing hook to put the sight hook before")
	}
	must(t, os.WriteFile(path, []byte(text), 0o644))
	return loadHousehold(t, path)
}

// runSighted plays the household episode over the OpenAI wire, blind or
// not, against the real simulator subprocess, and returns the acting
// model's requests and the run log.
func runSighted(t *testing.T, blind bool) ([]string, []runlog.Event) {
	spec, brain := householdWithSightHook(t)
	srv := overWire(t, spec, openaiWire(), brain)
	runs := t.TempDir()
	h := newHarnessWith(t, spec, runs, func(o *engine.Options) { o.Blind = blind })
	rep, err := h.Run(t.Context(), "Put the mug in the top drawer")
	if err != nil || rep.Reason != runlog.DoneFinal || !strings.HasPrefix(rep.Text, "Done: the mug is in the top drawer") {
		t.Fatalf("report %+v, err %v", rep, err)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	var decide []string
	for i, b := range srv.bodies {
		if srv.purposes[i] == model.PurposeDecide {
			decide = append(decide, string(b))
		}
	}
	return decide, runEvents(t, runs)
}

// Under --blind (engine.Options.Blind) no request to the acting model
// carries an observation, a Scene Graph Brief or an image, while the
// observation tool is still read every turn, the run log keeps every
// observation with its images, and a hook that passes only when it reads
// the observation lets every pick_up through. The seeing run of the same
// episode is the control: there every request has its observation and
// images, so these checks can fail.
func TestBlindWithholdsObservationsFromTheModelOnly(t *testing.T) {
	w := openaiWire()
	for _, blind := range []bool{false, true} {
		name := map[bool]string{false: "seeing", true: "blind"}[blind]
		t.Run(name, func(t *testing.T) {
			requests, events := runSighted(t, blind)
			images, observed, briefs, withheld := 0, 0, 0, 0
			for _, body := range requests {
				images += len(w.images.FindAllString(body, -1))
				observed += strings.Count(body, ", from observe):")
				briefs += strings.Count(body, briefHeader)
				withheld += strings.Count(body, "withheld (a blind evaluation")
			}
			n := len(requests)
			if blind && (images > 0 || observed > 0 || briefs > 0 || withheld != n) {
				t.Errorf("blind: %d requests carry %d images, %d observations, %d Briefs; %d say the observation is withheld", n, images, observed, briefs, withheld)
			}
			if !blind && (images < n || observed != n || briefs == 0 || withheld > 0) {
				t.Errorf("seeing: %d requests carry %d images, %d observations, %d Briefs (the control fails: the blind checks prove nothing)", n, images, observed, briefs)
			}
			obsEvents, obsImages, allowed := 0, 0, 0
			for _, ev := range events {
				switch {
				case ev.Kind == runlog.EventObservation && ev.Observation != nil:
					obsEvents++
					obsImages += len(ev.Observation.Images)
				case ev.Kind == runlog.EventHook && ev.Hook != nil && ev.Hook.Hook == "needs_the_observation":
					switch {
					case ev.Hook.Decision == runlog.DecisionBlock:
						t.Errorf("the sight hook blocked: %s", ev.Hook.Reason)
					case ev.Hook.Reason == "rule does not hold": // a pick_up it let through
						allowed++
					}
				}
			}
			if obsEvents < n || obsImages < n || allowed == 0 {
				t.Errorf("run log: %d observations with %d images for %d decisions; the sight hook allowed %d pick_up calls", obsEvents, obsImages, n, allowed)
			}
		})
	}
}
