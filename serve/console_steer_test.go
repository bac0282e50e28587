package serve

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/thea-harness/thea/internal/testtime"
)

// Revise and stop from the page: a revision typed while a task waits
// reaches it (the trace and the Task Notes' goal show it); a task waiting
// on a question, stopped, ends cancelled at its next check; a task whose
// back-end is moving, stopped with "interrupt" ticked, has its motion
// cancelled in the back-end and ends cancelled too.
func TestConsoleStopsATask(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	marker, started := filepath.Join(tmp, "cancelled"), filepath.Join(tmp, "started")
	b := newBrowser(t)
	f := start(t, fmt.Sprintf(`  base:
    kind: mcp
    command: [%q]
    env: {%s: "1", %s: %q, %s: %q}
    stop: {tool: stop}
tools: {drive: {physical: true}, stop: {hidden: true}}
`, exe, slowServerEnv, markerEnv, marker, startedEnv, started), `
- tool_calls: [{name: query_user, arguments: {question: "Which mug?", choices: [red, blue]}}]
- tool_calls: [{name: query_user, arguments: {question: "Really?", choices: ["yes", "no"]}}]
- tool_calls: [{name: drive, arguments: {}}]
`, Config{})
	b.open(f.base)

	b.typeInto("Instruction", "Fetch a mug")
	b.click("button", "Run")
	b.do("the question", chromedp.WaitVisible("", byName("button", "red")))
	b.typeInto("Instruction", "Fetch the blue mug")
	b.click("button", "Revise")
	b.waitFor("the revision acknowledged", `document.getElementById('control-msg').textContent.startsWith('Revised')`)
	b.click("button", "red")
	b.waitFor("the revision in the task", traceText+`.includes('Fetch the blue mug')`)
	b.waitFor("the goal revised", `document.getElementById('notes-goal').textContent.includes('Fetch the blue mug')`)
	b.do("the next question", chromedp.WaitVisible("", byName("button", "yes")))
	b.click("button", "Stop")
	b.waitFor("the cancelled report", `document.getElementById('report-reason').textContent === 'cancelled'`)
	if got := b.evalString(traceText); !strings.Contains(got, "question 2 stopped") || !strings.Contains(got, "should_cancel") {
		t.Errorf("the trace of the stopped task: %q", got)
	}
	b.traceIDs()

	b.typeInto("Instruction", "Drive on")
	b.click("button", "Run")
	b.waitFor("the motion's call", traceText+`.includes('→ drive')`)
	waitFile(t, started) // the event precedes the request: wait until the back-end moves
	if h := b.evalString(`document.getElementById('health').textContent`); !strings.Contains(h, "held by drive") {
		t.Errorf("health while the motion runs: %q", h)
	}
	b.click("checkbox", "Stop interrupts the running call")
	b.click("button", "Stop")
	b.waitFor("the cancelled report", `document.getElementById('report-reason').textContent === 'cancelled'`)
	if got := b.evalString(traceText); !strings.Contains(got, "drive was cancelled") {
		t.Errorf("the interrupted call's result is not in the trace: %q", got)
	}
	waitFile(t, marker) // the back-end saw the cancellation
	b.traceIDs()
	if p := b.errors(); len(p) > 0 {
		t.Errorf("errors on the page: %q", p)
	}
}

// A page reloaded while a question waits shows the question and the task
// so far, each event once; a stream the network drops is resumed with
// Last-Event-ID, again without losing or repeating an event.
func TestConsoleReloadAndReconnect(t *testing.T) {
	b := newBrowser(t)
	b.networkErrorsExpected = true // the proxy cuts the streams
	f := start(t, "", `
- text: "Looking first."
  tool_calls: [{name: notify_user, arguments: {message: "step one"}}]
- tool_calls: [{name: query_user, arguments: {question: "Which mug?", choices: [red, blue]}}]
- tool_calls: [{name: query_user, arguments: {question: "Are you sure?", choices: ["yes", "no"]}}]
- text: "Took the red mug."
`, Config{})
	p := newCutProxy(t, f.addr())
	b.open(p.base)
	b.typeInto("Instruction", "Fetch a mug")
	b.click("button", "Run")
	b.do("the first question", chromedp.WaitVisible("", byName("button", "red")))
	before := b.traceIDs()

	b.do("reloading", chromedp.Reload())
	b.do("the question after the reload", chromedp.WaitVisible("", byName("button", "red")))
	b.waitFor("the whole task so far", fmt.Sprintf(`document.getElementById('trace-list').dataset.last === '%d'`, before))
	if got := b.evalString(`document.getElementById('pending-list').textContent`); !strings.Contains(got, "Which mug?") {
		t.Errorf("pending after the reload: %q", got)
	}
	b.traceIDs()

	// The network drops every connection; the page's stream comes back and
	// resumes after the last event it showed.
	p.cut()
	select {
	case <-p.resumed:
	case <-time.After(testtime.Scale(30 * time.Second)):
		t.Fatal("the event stream was not resumed with Last-Event-ID after the connections dropped")
	}
	b.waitFor("the stream live again", `document.getElementById('link').textContent === 'live'`)
	b.click("button", "red")
	b.do("the second question", chromedp.WaitVisible("", byName("button", "yes")))
	p.cut()
	b.waitFor("the stream live again", `document.getElementById('link').textContent === 'live'`)
	b.click("button", "yes")
	b.waitFor("the report", `document.getElementById('report-reason').textContent === 'final_answer'`)
	n := b.traceIDs()
	var tv TaskView
	f.do("GET", "/v1/tasks/1", nil, &tv)
	if n != tv.Events {
		t.Errorf("the page shows %d events, the task has %d", n, tv.Events)
	}
	if p := b.errors(); len(p) > 0 {
		t.Errorf("errors on the page: %q", p)
	}
}

// A hostile back-end's text, a hostile model's text and a camera named in
// markup show as text: no element is made of them, no script runs, the
// title stays, and a choice in markup is a button named by that text.
func TestConsoleShowsHostileTextAsText(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	f := start(t, fmt.Sprintf(`  eyes:
    kind: mcp
    command: [%q]
    env: {%s: "1"}
`, exe, hostileServerEnv), `
- text: '<b>bold</b><img src=x onerror="window.__pwned=4">'
  tool_calls: [{name: inspect, arguments: {}}]
- tool_calls: [{name: query_user, arguments: {question: '<img src=x onerror="window.__pwned=5">Which?', choices: ['<i>one</i>', two]}}]
- text: '<script>window.__pwned=6</script>done'
`, Config{})
	b.open(f.base)
	title := b.evalString(`document.title`)
	b.typeInto("Instruction", `<svg onload="window.__pwned=7">`)
	b.click("button", "Run")
	b.click("button", "<i>one</i>")
	b.waitFor("the report", `document.getElementById('report-reason').textContent === 'final_answer'`)
	b.waitFor("the hostile camera's frame", `[...document.querySelectorAll('#camera-list img')].some(i => i.complete && i.naturalWidth > 0)`)

	got := b.evalString(`document.body.textContent`)
	for _, want := range []string{`<script>window.__pwned=2</script>"}`, `<b>bold</b><img src=x onerror=`, hostileCamera,
		`<img src=x onerror="window.__pwned=5">Which?`, `<script>window.__pwned=6</script>done`, `<svg onload="window.__pwned=7">`} {
		if !strings.Contains(got, want) {
			t.Errorf("the page does not show %q as text", want)
		}
	}
	type dom struct {
		Pwned   bool   `json:"pwned"`
		Title   string `json:"title"`
		Made    int    `json:"made"`
		Scripts int    `json:"scripts"`
	}
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[dom](`({
		pwned: window.__pwned !== undefined,
		title: document.title,
		made: document.querySelectorAll('img[src="x"], b, i, svg:not(.map), [onerror], [onload]').length,
		scripts: [...document.querySelectorAll('script')].filter(s => !/^\/console\/(recovery|handover|world|console)\.js$/.test(s.getAttribute('src'))).length,
	})`))
	if err != nil {
		t.Fatal(err)
	}
	if v.Pwned || v.Title != title || v.Made != 0 || v.Scripts != 0 {
		t.Errorf("the page ran or built hostile markup: %+v (title before %q)", v, title)
	}
	if p := b.errors(); len(p) > 0 {
		t.Errorf("errors on the page (a blocked script would show here): %q", p)
	}
}

// Off loopback the page asks for the token once, keeps it in the tab's
// sessionStorage only and trades it for an HttpOnly read cookie: the event
// streams, the camera images and the report link then work, and the token
// is in no URL the page fetched.
func TestConsoleAsksForTheToken(t *testing.T) {
	const token = "console-test-token-0123456789"
	b := newBrowser(t)
	b.networkErrorsExpected = true // the first status is refused: 401
	f := startHousehold(t, nil, Config{Token: token})
	b.do("the page asks for the token", chromedp.Navigate(f.base+"/"), chromedp.WaitVisible("", byName("textbox", "Token")))
	b.do("typing the token", chromedp.SendKeys("", token, byName("textbox", "Token")))
	b.click("button", "Connect")
	b.waitFor("the session", `document.title.includes('household-sim')`)
	b.typeInto("Instruction", "Put the mug in the top drawer")
	b.click("button", "Run")
	b.waitFor("the report", `document.getElementById('report-reason').textContent === 'final_answer'`)
	b.waitFor("the camera frames", `[...document.querySelectorAll('#camera-list img')].filter(i => i.complete && i.naturalWidth > 0).length === 2`)
	type store struct {
		Session string   `json:"session"`
		Local   int      `json:"local"`
		Cookie  string   `json:"cookie"`
		URLs    []string `json:"urls"`
	}
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[store](`({
		session: sessionStorage.getItem('thea.token'),
		local: localStorage.length,
		cookie: document.cookie,
		urls: [location.href, ...performance.getEntriesByType('resource').map(e => e.name)],
	})`))
	if err != nil {
		t.Fatal(err)
	}
	if v.Session != token || v.Local != 0 || v.Cookie != "" {
		t.Errorf("the token is kept as %+v; want it in sessionStorage only, the cookie unreadable", v)
	}
	for _, u := range v.URLs {
		if strings.Contains(u, token) {
			t.Errorf("the token is in a URL: %s", u)
		}
	}
	b.traceIDs()
	// The report link is an ordinary link: the read cookie opens it.
	b.do("the report page", chromedp.Navigate(f.base+"/v1/tasks/1/report"), chromedp.WaitVisible("#turn-10"))
	// A reload asks for nothing: the token is still in the tab.
	b.open(f.base)
	b.waitFor("the finished task", `document.getElementById('report-reason').textContent === 'final_answer'`)
	if hidden := b.eval(`document.getElementById('login').hidden`); hidden != true {
		t.Error("the page asked for the token again after a reload")
	}
}

// cutProxy forwards TCP connections to a server and can drop them all at
// once, as a flaky network would. It notes when a request resumes an event
// stream with Last-Event-ID.
type cutProxy struct {
	base    string
	target  string
	ln      net.Listener
	mu      sync.Mutex
	conns   []net.Conn
	resumed chan struct{}
	once    sync.Once
	cutDone bool
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{base: "http://" + ln.Addr().String(), target: target, ln: ln, resumed: make(chan struct{})}
	go p.accept()
	t.Cleanup(func() {
		ln.Close()
		p.cut()
	})
	return p
}

func (p *cutProxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(c, s); c.Close() }()
		go func() { _, _ = io.Copy(s, &sniffer{r: c, p: p}); s.Close() }()
	}
}

// cut closes every connection open now.
func (p *cutProxy) cut() {
	p.mu.Lock()
	conns := p.conns
	p.conns = nil
	p.cutDone = true
	p.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

// sniffer reads a client's bytes and notes a resumed stream after a cut.
type sniffer struct {
	r io.Reader
	p *cutProxy
}

func (s *sniffer) Read(b []byte) (int, error) {
	n, err := s.r.Read(b)
	if n > 0 && bytes.Contains(bytes.ToLower(b[:n]), []byte("\r\nlast-event-id: ")) {
		s.p.mu.Lock()
		after := s.p.cutDone
		s.p.mu.Unlock()
		if after {
			s.p.once.Do(func() { close(s.p.resumed) })
		}
	}
	return n, err
}

// A page left open follows the session: a task another client starts shows
// up and runs to its report, then the next one; Reset clears the session
// between tasks.
func TestConsoleFollowsTasksStartedElsewhere(t *testing.T) {
	b := newBrowser(t)
	f := start(t, "", `
- text: "Hello from task one."
- text: "Hello from task two."
`, Config{})
	b.open(f.base)
	b.waitFor("the idle session", `document.getElementById('state').textContent === 'idle'`)
	f.events(f.submit("Say hello"), "").rest()
	b.waitFor("the first task's report", `document.getElementById('report-text').textContent === 'Hello from task one.'`)
	b.click("button", "Reset")
	b.waitFor("the reset", `document.getElementById('control-msg').textContent.startsWith('Session reset')`)
	f.events(f.submit("Say hello again"), "").rest()
	b.waitFor("the second task's report", `document.getElementById('report-text').textContent === 'Hello from task two.'`)
	if got := b.evalString(`document.getElementById('trace-task').textContent`); got != "task 2" {
		t.Errorf("the trace shows %q, want task 2", got)
	}
	b.traceIDs()
	if p := b.errors(); len(p) > 0 {
		t.Errorf("errors on the page: %q", p)
	}
}
