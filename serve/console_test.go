package serve

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The console is served to anyone who passes the browser checks, also when
// the API needs a token (the page asks for it), with its policy and a
// validator; what is not one of its files is not served.
func TestConsoleFilesServed(t *testing.T) {
	f := start(t, "", "- text: hi\n", Config{Token: "console-files-token-0123"})
	f.token = "" // a browser loading the page has no token yet
	for _, c := range []struct {
		path, ctype string
	}{
		{"/", "text/html; charset=utf-8"},
		{"/console/console.js", "text/javascript; charset=utf-8"},
		{"/console/console.css", "text/css; charset=utf-8"},
		{"/console/favicon.png", "image/png"},
		{"/favicon.ico", "image/png"},
	} {
		resp := get(t, f.base+c.path, nil)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != c.ctype {
			t.Errorf("GET %s: %d %q", c.path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("GET %s: Content-Security-Policy %q", c.path, csp)
		}
		etag := resp.Header.Get("ETag")
		again := get(t, f.base+c.path, map[string]string{"If-None-Match": etag})
		again.Body.Close()
		if etag == "" || again.StatusCode != http.StatusNotModified {
			t.Errorf("GET %s again with its ETag %q: %d, want 304", c.path, etag, again.StatusCode)
		}
	}
	for _, p := range []string{"/console/", "/console/index.html", "/console/nope.js", "/console/../serve.go"} {
		if code, _ := f.raw("GET", p, nil); code != http.StatusNotFound && code != http.StatusUnauthorized {
			t.Errorf("GET %s: %d, want 404 (or the API's 401)", p, code)
		}
	}
	// The API still needs the token.
	if code, _ := f.raw("GET", "/v1/status", nil); code != http.StatusUnauthorized {
		t.Errorf("GET /v1/status without the token: %d", code)
	}
}

// Without a token the page is a loopback page too: a DNS-rebinding host is
// refused the page as it is the API.
func TestConsoleRefusesRebindingHost(t *testing.T) {
	f := start(t, "", "- text: hi\n", Config{})
	resp := get(t, f.base+"/", map[string]string{"Host": "attacker.example:7878"})
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("GET / with a foreign Host: %d, want 403", resp.StatusCode)
	}
}

// The page's script builds the page from text only: it never parses a
// string as HTML nor runs one as code.
func TestConsoleScriptUsesTextOnly(t *testing.T) {
	src := consoleSource(t, "console.js")
	for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
		"setTimeout('", `setTimeout("`, "createContextualFragment", "DOMParser", "srcdoc", "javascript:", "localStorage"} {
		if strings.Contains(src, bad) {
			t.Errorf("console.js uses %q", bad)
		}
	}
	html := consoleSource(t, "index.html")
	for _, bad := range []string{"<style", "style=", "http://", "https://", "<script>"} {
		if strings.Contains(html, bad) {
			t.Errorf("index.html has %q (inline code or style, or something fetched from elsewhere)", bad)
		}
	}
	if m := regexp.MustCompile(`\son[a-z]+=`).FindString(html); m != "" {
		t.Errorf("index.html has an inline handler %q", m)
	}
}

// Every kind of event the run-log format declares is one the page listens for: an
// EventSource delivers only the named events it was given.
func TestConsoleListensForEveryEventKind(t *testing.T) {
	var kinds []string
	decl := regexp.MustCompile(`EventKind = "([a-z_]+)"`)
	for _, f := range []string{"event.go", "modelcall.go", "handover.go"} {
		b, err := os.ReadFile(filepath.Join("..", "runlog", f))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
			kinds = append(kinds, m[1])
		}
	}
	if len(kinds) < 20 {
		t.Fatalf("read only %d event kinds from the run-log format: %q", len(kinds), kinds)
	}
	// The server's own events.
	kinds = append(kinds, "pending", "resolved", "notes", "health", "server_error")
	src := consoleSource(t, "console.js")
	start := strings.Index(src, "const KINDS = [")
	end := strings.Index(src[start:], "];")
	listed := regexp.MustCompile(`'([a-z_]+)'`).FindAllStringSubmatch(src[start:start+end], -1)
	var got []string
	for _, m := range listed {
		got = append(got, m[1])
	}
	for _, k := range kinds {
		if !slices.Contains(got, k) {
			t.Errorf("the console does not listen for %q events", k)
		}
	}
}

// The controls carry the accessible names tests and screen readers use.
func TestConsoleNamesItsControls(t *testing.T) {
	html := consoleSource(t, "index.html")
	for _, want := range []string{`<label for="instruction">Instruction</label>`, `<textarea id="instruction"`,
		`>Run</button>`, `>Revise</button>`, `>Stop</button>`, `>Reset</button>`, `<label for="token">Token</label>`} {
		if !strings.Contains(html, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	js := consoleSource(t, "console.js")
	for _, want := range []string{`'Allow')`, `'Block')`} {
		if !strings.Contains(js, want) {
			t.Errorf("console.js lacks the button %s", want)
		}
	}
}

func consoleSource(t *testing.T, name string) string {
	t.Helper()
	b, err := consoleFiles.ReadFile("console/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// get sends a GET with headers (Host among them) and returns the answer.
func get(t *testing.T, url string, headers map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}
