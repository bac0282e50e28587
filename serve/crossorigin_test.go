package serve

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
)

// Every response, the camera's latest frame above all, says it may be read
// only by pages of the server's own origin and is never sniffed: a page on
// the same host at another port (same site, so the read cookie goes with
// it) cannot embed a frame and watch its size and updates. Refusals carry
// it too.
func TestServeSameOriginOnly(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const token = "t0ken-cross-origin"
	f := start(t, fmt.Sprintf(`  eyes:
    kind: mcp
    command: [%q]
    env: {%s: "1"}
`, exe, hostileServerEnv), `
- tool_calls: [{name: inspect, arguments: {}}]
- text: "Seen."
`, Config{Token: token})
	id := f.submit("Look")
	f.events(id, "").rest()
	var st Status
	f.do("GET", "/v1/status", nil, &st)
	if len(st.Cameras) != 1 {
		t.Fatalf("status cameras: %+v", st.Cameras)
	}
	auth := map[string]string{"Authorization": "Bearer " + token}
	latest := get(t, f.base+st.Cameras[0].Latest, auth)
	latest.Body.Close()
	if latest.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", st.Cameras[0].Latest, latest.StatusCode)
	}
	withETag := map[string]string{"Authorization": auth["Authorization"], "If-None-Match": latest.Header.Get("ETag")}
	for _, c := range []struct {
		path    string
		headers map[string]string
		want    int
	}{
		{st.Cameras[0].Latest, auth, http.StatusOK},
		{st.Cameras[0].Latest, withETag, http.StatusNotModified},
		{st.Cameras[0].URL, auth, http.StatusOK},
		{st.Cameras[0].Latest, nil, http.StatusUnauthorized},
		{"/v1/cameras/nope/latest", auth, http.StatusNotFound},
		{"/v1/status", auth, http.StatusOK},
		{fmt.Sprintf("/v1/tasks/%d", id), auth, http.StatusOK},
		{fmt.Sprintf("/v1/tasks/%d/events", id), auth, http.StatusOK},
		{"/openapi.json", auth, http.StatusOK},
		{"/", nil, http.StatusOK},
		{"/console/console.js", nil, http.StatusOK},
	} {
		resp := get(t, f.base+c.path, c.headers)
		resp.Body.Close()
		h := resp.Header
		if resp.StatusCode != c.want || h.Get("Cross-Origin-Resource-Policy") != "same-origin" || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s %v: %d, CORP %q, X-Content-Type-Options %q; want %d, same-origin, nosniff",
				c.path, c.headers, resp.StatusCode, h.Get("Cross-Origin-Resource-Policy"), h.Get("X-Content-Type-Options"), c.want)
		}
	}
	// A POST's answer too, here a refusal.
	req, err := http.NewRequestWithContext(t.Context(), "POST", f.base+"/v1/questions/99/answer", strings.NewReader(`{"answer": "x"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", auth["Authorization"])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || resp.Header.Get("Cross-Origin-Resource-Policy") != "same-origin" {
		t.Errorf("POST an answer to no question: %d %v, want 404 with CORP same-origin", resp.StatusCode, resp.Header)
	}
}
