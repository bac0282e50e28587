package cli_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/internal/testutil"
)

var updateReportPNG = flag.Bool("update-report-png", false, "rewrite docs/report.png from the household demo's report")

// householdRun runs the household demo and returns its run directory.
func householdRun(t *testing.T) string {
	t.Helper()
	spec := testutil.ExampleCopy(t, householdSpec)
	runs := t.TempDir()
	if code, out, errs := run(t, "run", "--spec", spec, "--run-log", runs, "Put the mug in the top drawer"); code != 0 {
		t.Fatalf("thea run: exit %d\n%s\n%s", code, out, errs)
	}
	dirs, err := filepath.Glob(filepath.Join(runs, "*"))
	if err != nil || len(dirs) != 1 {
		t.Fatalf("run directories: %v %v", dirs, err)
	}
	return dirs[0]
}

// The household demo's page, checked as text: every turn, every camera
// image inline, nothing fetched from anywhere.
func TestReportHousehold(t *testing.T) {
	dir := householdRun(t)
	page := filepath.Join(t.TempDir(), "page.html")
	code, _, errs := run(t, "report", dir, "-o", page)
	if code != 0 || !strings.Contains(errs, "report: "+page) {
		t.Fatalf("thea report: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	for n := 1; n <= 10; n++ {
		if !strings.Contains(html, fmt.Sprintf(`<section class="turn" id="turn-%d"`, n)) {
			t.Errorf("turn %d missing", n)
		}
	}
	if strings.Contains(html, `id="turn-11"`) {
		t.Error("a turn 11 the run never had")
	}
	pngs, _ := filepath.Glob(filepath.Join(dir, "*.png"))
	if n := strings.Count(html, `src="data:image/png;base64,`); n != len(pngs) || n != 20 {
		t.Errorf("%d inline images, %d files in the run directory, want 20", n, len(pngs))
	}
	for _, bad := range []string{"http://", "https://", "<script", "<link"} {
		if strings.Contains(html, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	for _, want := range []string{"clamp_translation: clamp", "too far from the target to grasp", "verdict pick_up: success (by check)", "final_answer", "the top drawer of the kitchen cabinet"} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Without -o the page lands in the run directory.
	if code, _, errs := run(t, "report", dir); code != 0 {
		t.Errorf("report without -o: %d %s", code, errs)
	} else if _, err := os.Stat(filepath.Join(dir, "report.html")); err != nil {
		t.Error(err)
	}
	if code, _, errs := run(t, "report", t.TempDir()); code != 1 || !strings.Contains(errs, "events.jsonl") {
		t.Errorf("a directory without a run log: %d %q", code, errs)
	}
	if code, _, _ := run(t, "report"); code != 2 {
		t.Errorf("no RUN_DIR: exit %d, want 2", code)
	}
}

// The page in headless Chromium: it loads with no console error, every
// turn is laid out and every image decodes. A page that fetches anything
// (here one image from the network, refused by the page's policy) is
// caught as a console error, so the check can fail.
func TestReportInChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (Debian: apt-get install chromium); .ci/run installs it")
	}
	dir := householdRun(t)
	out := t.TempDir()
	page := filepath.Join(out, "report.html")
	if code, _, errs := run(t, "report", dir, "-o", page); code != 0 {
		t.Fatalf("thea report: %s", errs)
	}
	profile, err := os.MkdirTemp("", "thea-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Chromium's helpers may still write for a moment after it exits.
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	alloc, cancel := chromedp.NewExecAllocator(t.Context(),
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.NoFirstRun,
		chromedp.UserDataDir(profile), chromedp.WindowSize(1280, 1400))
	defer cancel()
	ctx, cancelTab := chromedp.NewContext(alloc)
	defer cancelTab()
	ctx, cancelTime := context.WithTimeout(ctx, testtime.Scale(2*time.Minute)) // a hung browser fails, not hangs
	defer cancelTime()

	var mu sync.Mutex
	var problems []string
	if err := chromedp.Do(ctx); err != nil { // start the browser and its tab
		t.Fatal(err)
	}
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
				problems = append(problems, fmt.Sprintf("console.%s", e.Type))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+e.ExceptionDetails.Text)
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError {
				problems = append(problems, "log: "+e.Entry.Text)
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	seen := func() []string {
		// A round trip after the page settles: events sent before its answer
		// have been delivered.
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[int](`1`)); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		p := problems
		problems = nil
		return p
	}

	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page), chromedp.WaitReady("#turn-10")); err != nil {
		t.Fatal(err)
	}
	type layout struct {
		Turns       int  `json:"turns"`
		Visible     int  `json:"visible"`
		Images      int  `json:"images"`
		Decoded     int  `json:"decoded"`
		ChartBands  int  `json:"chartBands"`
		ChartHeight int  `json:"chartHeight"`
		Report      bool `json:"report"`
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[layout](`(() => {
		const turns = [...document.querySelectorAll('section.turn')];
		const imgs = [...document.querySelectorAll('img')];
		const chart = document.querySelector('svg.chart');
		return {
			turns: turns.length,
			visible: turns.filter(s => s.getBoundingClientRect().height > 20 && s.querySelector('h3').textContent.startsWith('Turn ' + s.dataset.turn)).length,
			images: imgs.length,
			decoded: imgs.filter(i => i.complete && i.naturalWidth > 0).length,
			chartBands: chart ? chart.querySelectorAll('polygon').length : 0,
			chartHeight: chart ? Math.round(chart.getBoundingClientRect().height) : 0,
			report: document.querySelector('#report').textContent.includes('top drawer'),
		};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Turns != 10 || got.Visible != 10 || got.Images != 20 || got.Decoded != 20 || got.ChartBands != 3 || got.ChartHeight < 100 || !got.Report {
		t.Errorf("laid out: %+v; want 10 visible turns, 20 decoded images, a 3-band chart and the report", got)
	}
	if p := seen(); len(p) > 0 {
		t.Errorf("console errors loading the report: %q", p)
	}
	full, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(out, "report.png")
	if err := os.WriteFile(shot, full, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", shot, len(full))
	if *updateReportPNG {
		top, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "..", "..", "docs", "report.png"), top, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The negative control: the same policy, one image from the network.
	bad := filepath.Join(out, "fetches.html")
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	leak := strings.Replace(string(src), "<main>", `<main><img src="https://example.invalid/pixel.png" alt="">`, 1)
	if err := os.WriteFile(bad, []byte(leak), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+bad), chromedp.WaitReady("#turn-10")); err != nil {
		t.Fatal(err)
	}
	if p := seen(); len(p) == 0 {
		t.Error("a page fetching from the network loaded without a console error: the check would miss it")
	} else {
		t.Logf("negative control caught: %q", p)
	}
}
