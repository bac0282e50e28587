package serve

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// The store keeps what fits its bound, oldest dropped first, refuses what
// a browser would treat as a document, and keeps each camera's latest
// frame even once the bound dropped it from the event's images.
func TestImageStoreBounds(t *testing.T) {
	st := newImageStore("run1", 8*1000) // one image at most 1000 bytes
	img := func(camera, mime string, n int) world.Image {
		return world.Image{Camera: camera, MIME: mime, Data: bytes.Repeat([]byte{7}, n)}
	}
	ev := func(images ...world.Image) runlog.Event { return runlog.Event{Turn: 3, Images: images} }

	refs := st.keepEvent(1, 5, ev(img("head", "image/png", 900), img("doc", "image/svg+xml", 10),
		img("big", "image/png", 1001), img("none", "image/jpeg", 0)))
	if refs[0].URL != "/v1/tasks/1/events/5/images/0?v=run1" || refs[0].Bytes != 900 {
		t.Errorf("kept image: %+v", refs[0])
	}
	for i, want := range []string{"image/svg+xml", "more than the 1000 kept", "empty"} {
		if r := refs[i+1]; r.URL != "" || !strings.Contains(r.Note, want) {
			t.Errorf("image %d: %+v, want no URL and a note saying %q", i+1, r, want)
		}
	}
	// Ten more 900-byte frames of another camera: the oldest go first.
	for seq := 6; seq < 16; seq++ {
		st.keepEvent(1, seq, ev(img("wrist", "image/png", 900)))
	}
	if st.total > st.max {
		t.Errorf("holding %d bytes, over the bound %d", st.total, st.max)
	}
	if _, ok := st.get("t1-e5-i0"); ok {
		t.Error("the oldest image is still kept past the bound")
	}
	if _, ok := st.get("t1-e15-i0"); !ok {
		t.Error("the newest image was dropped")
	}
	// head's latest frame outlives its event's image.
	k, f, ok := st.latestOf("head")
	if !ok || len(k.data) != 900 || f.Event != 5 || f.Turn != 3 || f.Latest != "/v1/cameras/head/latest" {
		t.Errorf("head's latest: %v %+v", ok, f)
	}
	// At most maxCameras cameras' latest frames.
	for i := range maxCameras + 2 {
		st.keepEvent(2, i+1, ev(img(fmt.Sprintf("cam%d", i), "image/png", 10)))
	}
	if n := len(st.frames()); n != maxCameras {
		t.Errorf("%d cameras' frames kept, want %d", n, maxCameras)
	}
	if _, _, ok := st.latestOf("head"); ok {
		t.Error("the camera updated longest ago is still kept past maxCameras")
	}
}

// Images over HTTP: a tool result's image is fetched at the URL its event
// names, cached for good with this run's id in the URL (304 on its ETag),
// refused as another run's without it, never sniffed nor run as a document;
// the camera's latest frame is revalidated and names its own URL.
func TestServeImages(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f := start(t, fmt.Sprintf(`  eyes:
    kind: mcp
    command: [%q]
    env: {%s: "1"}
`, exe, hostileServerEnv), `
- tool_calls: [{name: inspect, arguments: {}}]
- text: "Seen."
`, Config{})
	got := f.events(f.submit("Look"), "").rest()
	var refs []ImageRef
	for _, m := range got {
		if m.event == "tool_result" {
			refs = decodeAs[eventWithImages](t, m).Images
		}
	}
	if len(refs) != 1 || refs[0].Camera != hostileCamera || refs[0].MIME != "image/png" || refs[0].URL == "" {
		t.Fatalf("the tool result's images: %+v", refs)
	}
	u := refs[0].URL
	resp := get(t, f.base+u, nil)
	body := readAll(t, resp.Body)
	resp.Body.Close()
	h := resp.Header
	if resp.StatusCode != 200 || h.Get("Content-Type") != "image/png" || body != string(testPNG()) ||
		h.Get("Cache-Control") != "private, max-age=31536000, immutable" || h.Get("X-Content-Type-Options") != "nosniff" ||
		!strings.Contains(h.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("GET %s: %d %v (%d bytes)", u, resp.StatusCode, h, len(body))
	}
	again := get(t, f.base+u, map[string]string{"If-None-Match": h.Get("ETag")})
	again.Body.Close()
	if again.StatusCode != http.StatusNotModified {
		t.Errorf("GET %s with its ETag: %d, want 304", u, again.StatusCode)
	}
	plain, _, _ := strings.Cut(u, "?")
	if resp := get(t, f.base+plain, nil); resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "private, no-cache" {
		t.Errorf("GET %s (no run id): %d %q, want 200 revalidated", plain, resp.StatusCode, resp.Header.Get("Cache-Control"))
	}
	for _, p := range []string{plain + "?v=another-run", "/v1/tasks/1/events/999/images/0", "/v1/tasks/1/events/x/images/0"} {
		if code, _ := f.raw("GET", p, nil); code != http.StatusNotFound && code != http.StatusBadRequest {
			t.Errorf("GET %s: %d, want 404 or 400", p, code)
		}
	}
	var st Status
	f.do("GET", "/v1/status", nil, &st)
	if len(st.Cameras) != 1 || st.Cameras[0].URL != u || st.Cameras[0].Latest != "/v1/cameras/"+url.PathEscape(hostileCamera)+"/latest" {
		t.Fatalf("status cameras: %+v", st.Cameras)
	}
	latest := get(t, f.base+st.Cameras[0].Latest, nil)
	latest.Body.Close()
	if latest.StatusCode != 200 || latest.Header.Get("Content-Location") != u || latest.Header.Get("Cache-Control") != "private, no-cache" {
		t.Errorf("GET %s: %d %v", st.Cameras[0].Latest, latest.StatusCode, latest.Header)
	}
	if code, _ := f.raw("GET", "/v1/cameras/nope/latest", nil); code != http.StatusNotFound {
		t.Errorf("an unknown camera: %d", code)
	}
}

// readAll reads a response body in a test.
func readAll(t *testing.T, r io.Reader) string {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
