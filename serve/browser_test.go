package serve

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/internal/testutil"
	"github.com/thea-harness/thea/schema"
)

// browser is one headless Chromium tab (Debian's chromium, headless,
// without sandbox or GPU, in a fresh profile) that records every console error, uncaught exception
// and browser log error of the pages it shows.
type browser struct {
	t   *testing.T
	ctx context.Context

	mu       sync.Mutex
	problems []string
	// networkErrorsExpected: the test cuts streams or refuses requests on
	// purpose, and the browser logs each as an error.
	networkErrorsExpected bool
}

// stepTimeout bounds one step of a test in the page (a click, a wait for
// what the page shows): a bound on a hang, scaled.
const stepTimeout = 20 * time.Second

// newBrowser starts Chromium, or skips the test where it is not installed
// (.ci/run installs it).
func newBrowser(t *testing.T) *browser {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (Debian: apt-get install chromium); .ci/run installs it")
	}
	profile, err := os.MkdirTemp("", "thea-console-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Chromium's helpers may still write for a moment after it exits;
		// a leftover profile in the temp dir is harmless.
		_ = os.RemoveAll(profile)
	})
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.WithoutCancel(t.Context()),
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.NoFirstRun,
		chromedp.UserDataDir(profile), chromedp.WindowSize(1280, 900))
	ctx, cancelTab := chromedp.NewContext(alloc)
	// A hung browser fails the test instead of hanging it.
	ctx, cancelTime := context.WithTimeout(ctx, testtime.Scale(3*time.Minute))
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	b := &browser{t: t, ctx: ctx}
	if err := chromedp.Do(ctx); err != nil { // start the browser and its tab
		t.Fatal(err)
	}
	if err := chromedp.Listen(ctx, b.record); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	return b
}

func (b *browser) record(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
			b.problems = append(b.problems, fmt.Sprintf("console.%s", e.Type))
		}
	case *runtime.EventExceptionThrown:
		b.problems = append(b.problems, "exception: "+e.ExceptionDetails.Text)
	case *cdplog.EventEntryAdded:
		if e.Entry.Level == cdplog.EntryLevelError && !(b.networkErrorsExpected && e.Entry.Source == cdplog.EntrySourceNetwork) {
			b.problems = append(b.problems, "log: "+e.Entry.Text+" "+e.Entry.URL)
		}
	}
}

// errors returns the problems recorded so far (after a round trip, so the
// events sent before it have arrived) and forgets them.
func (b *browser) errors() []string {
	b.eval(`1`)
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.problems
	b.problems = nil
	return p
}

// do runs actions, failing the test on an error.
func (b *browser) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, testtime.Scale(stepTimeout))
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v\n%s", what, err, b.dump())
	}
}

// eval evaluates a JavaScript expression for its JSON value.
func (b *browser) eval(expr string) any {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[any](expr))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// evalString evaluates a JavaScript expression that gives a string.
func (b *browser) evalString(expr string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// evalInt evaluates a JavaScript expression that gives a number.
func (b *browser) evalInt(expr string) int {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](expr))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// waitFor waits until a JavaScript expression is true: the page shows
// what the test waits for.
func (b *browser) waitFor(what, expr string) {
	b.t.Helper()
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(testtime.Scale(stepTimeout))))
	if err != nil {
		b.t.Fatalf("waiting for %s (%s): %v\n%s", what, expr, err, b.dump())
	}
}

// dump is what the page shows, for a failure message.
func (b *browser) dump() string {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(b.ctx), testtime.Scale(5*time.Second))
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText.slice(0, 4000) : ''`))
	if err != nil {
		return "(page text unavailable: " + err.Error() + ")"
	}
	return "page text:\n" + s
}

// byName finds elements by accessible role and name, as a screen reader
// names them (the accessibility tree, not CSS).
func byName(role, name string) chromedp.QueryOption {
	return chromedp.ByFunc(func(ctx context.Context, t *chromedp.Target, n *chromedp.Node) ([]cdp.NodeID, error) {
		res, err := cdp.Call(ctx, t, accessibility.QueryAXTree, accessibility.QueryAXTreeParams{NodeID: n.NodeID, AccessibleName: name, Role: role})
		if err != nil {
			return nil, err
		}
		var ids []cdp.BackendNodeID
		for _, ax := range res.Nodes {
			if !ax.Ignored && ax.BackendDOMNodeID != 0 {
				ids = append(ids, ax.BackendDOMNodeID)
			}
		}
		if len(ids) == 0 {
			return nil, nil
		}
		pushed, err := cdp.Call(ctx, t, dom.PushNodesByBackendIDsToFrontend, dom.PushNodesByBackendIDsToFrontendParams{BackendNodeIDs: ids})
		return pushed.NodeIDs, err
	})
}

// click clicks the control named name once it is enabled.
func (b *browser) click(role, name string) {
	b.t.Helper()
	b.do("clicking "+role+" "+name, chromedp.WaitEnabled("", byName(role, name)), chromedp.Click("", byName(role, name)))
}

// typeInto types text into the field labelled label.
func (b *browser) typeInto(label, text string) {
	b.t.Helper()
	b.do("typing into "+label, chromedp.SendKeys("", text, byName("textbox", label)))
}

// open loads the console.
func (b *browser) open(base string) {
	b.t.Helper()
	b.do("opening the console", chromedp.Navigate(base+"/"), chromedp.WaitVisible("", byName("button", "Run")))
}

// traceText is the trace as text.
const traceText = `document.getElementById('trace-list').textContent`

// traceIDs checks that the trace shows each event of the task once, from 1
// to its last, and that the page received none twice.
func (b *browser) traceIDs() int {
	b.t.Helper()
	type ids struct {
		IDs        []int `json:"ids"`
		Received   int   `json:"received"`
		Duplicates int   `json:"duplicates"`
	}
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[ids](`(() => {
		const t = document.getElementById('trace-list');
		return {ids: [...t.querySelectorAll('li[data-id]')].map(li => Number(li.dataset.id)),
			received: Number(t.dataset.received), duplicates: Number(t.dataset.duplicates)};
	})()`))
	if err != nil {
		b.t.Fatal(err)
	}
	// A verdict is shown after the result it judges, whichever came first:
	// the ids are each shown once, not always in order.
	shown := slices.Sorted(slices.Values(v.IDs))
	sorted := true
	for i, id := range shown {
		if id != i+1 {
			sorted = false
		}
	}
	if !sorted || v.Duplicates != 0 || v.Received != len(v.IDs) {
		b.t.Errorf("trace: ids %v, %d received, %d duplicates; want each event once, 1 to %d", v.IDs, v.Received, v.Duplicates, len(v.IDs))
	}
	return len(v.IDs)
}

var householdSpec = filepath.Join("..", "examples", "household", "spec.cue")

// startHousehold serves the household demo (its simulator a real MCP
// subprocess) as `thea serve` builds it; edit may change spec.cue's text,
// files are written beside it (name → content).
func startHousehold(t *testing.T, edit func(string) string, cfg Config, files ...string) *fixture {
	t.Helper()
	spec := testutil.ExampleCopy(t, householdSpec)
	if edit != nil {
		b, err := os.ReadFile(spec)
		if err != nil {
			t.Fatal(err)
		}
		write(t, spec, edit(string(b)))
	}
	for i := 0; i+1 < len(files); i += 2 {
		write(t, filepath.Join(filepath.Dir(spec), files[i]), files[i+1])
	}
	opts, err := components.Session(components.Options{Stdin: strings.NewReader("")})
	if err != nil {
		t.Fatal(err)
	}
	loaded, diags := schema.Load([]string{spec}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: opts.Components.Descriptors()})
	if loaded == nil {
		t.Fatalf("spec: %v", diags)
	}
	srv := New(cfg)
	opts.RunLogDir, opts.User = filepath.Join(t.TempDir(), "runs"), srv.User()
	h, err := engine.New(t.Context(), loaded, opts)
	if err != nil {
		t.Fatal(err)
	}
	return serveSession(t, srv, h, cfg)
}
