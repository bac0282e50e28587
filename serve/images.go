package serve

import (
	"container/list"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// The event stream carries no image bytes (the run log keeps them as
// files). The server keeps the latest ones in memory, bounded, so a browser
// can show what the robot sees without reading the run log: each image by
// the event that brought it (immutable), and each camera's latest frame.

// Image bounds: what the store holds in all (DefaultMaxImageBytes, or
// Config.MaxImageBytes), one image at most an eighth of it (and never more
// than maxOneImage), and at most maxCameras cameras' latest frames, which
// are kept past the total until a newer frame replaces them.
const (
	DefaultMaxImageBytes = 64 << 20
	maxOneImage          = 8 << 20
	maxCameras           = 8
)

// shownMIME are the image types served: raster formats a browser renders
// as an image and never runs (an SVG is a document that can hold script).
var shownMIME = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// ImageRef is an image as the event stream and the status name it: where to
// fetch it, or why it is not kept.
type ImageRef struct {
	Camera string `json:"camera"`
	MIME   string `json:"mime"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	Bytes  int    `json:"bytes"`
	// URL fetches the image; it never changes (cache it). Empty when the
	// image is not kept, and Note says why.
	URL  string `json:"url,omitempty"`
	Note string `json:"note,omitempty"`
}

// Frame is a camera's latest image and the event that brought it.
type Frame struct {
	ImageRef
	Task  int `json:"task"`
	Event int `json:"event"`
	Turn  int `json:"turn"`
	// Latest fetches the camera's newest frame whichever it is (revalidate
	// it: it changes).
	Latest string `json:"latest"`
}

// keptImage is one image held by the store.
type keptImage struct {
	key  string
	mime string
	data []byte
	elem *list.Element // in imageStore.order
}

// imageStore holds the images, oldest dropped first once over its bound.
type imageStore struct {
	instance      string // this server run: in every URL, so a cached image is never another run's
	max, maxOne   int
	mu            sync.Mutex
	byKey         map[string]*keptImage
	order         *list.List // *keptImage, oldest first
	total         int
	latest        map[string]Frame // by camera
	latestImage   map[string]*keptImage
	cameraUpdated []string // cameras, least recently updated first
}

func newImageStore(instance string, maxBytes int) *imageStore {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxImageBytes
	}
	return &imageStore{instance: instance, max: maxBytes, maxOne: min(maxOneImage, maxBytes/8),
		byKey: map[string]*keptImage{}, order: list.New(), latest: map[string]Frame{}, latestImage: map[string]*keptImage{}}
}

// keepEvent keeps the images of event seq of task, and names them.
func (st *imageStore) keepEvent(task, seq int, ev runlog.Event) []ImageRef {
	refs := make([]ImageRef, len(ev.Images))
	st.mu.Lock()
	defer st.mu.Unlock()
	for n, img := range ev.Images {
		key := fmt.Sprintf("t%d-e%d-i%d", task, seq, n)
		url := fmt.Sprintf("/v1/tasks/%d/events/%d/images/%d?v=%s", task, seq, n, st.instance)
		ref, kept := st.keepLocked(key, url, img)
		refs[n] = ref
		if kept != nil && img.Camera != "" {
			st.setLatestLocked(img.Camera, Frame{ImageRef: ref, Task: task, Event: seq, Turn: ev.Turn}, kept)
		}
	}
	return refs
}

// keepCandidate keeps the last view of a question's candidate n.
func (st *imageStore) keepCandidate(question, n int, img world.Image) ImageRef {
	st.mu.Lock()
	defer st.mu.Unlock()
	key := fmt.Sprintf("q%d-c%d", question, n)
	ref, _ := st.keepLocked(key, fmt.Sprintf("/v1/questions/%d/candidates/%d/image?v=%s", question, n, st.instance), img)
	return ref
}

// forgetQuestion drops a resolved question's candidate views.
func (st *imageStore) forgetQuestion(question int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	prefix := fmt.Sprintf("q%d-", question)
	for key, k := range st.byKey {
		if strings.HasPrefix(key, prefix) {
			st.dropLocked(k)
		}
	}
}

// keepLocked stores one image under key unless it is of a type not shown
// or too large.
func (st *imageStore) keepLocked(key, url string, img world.Image) (ImageRef, *keptImage) {
	ref := ImageRef{Camera: img.Camera, MIME: img.MIME, Width: img.Width, Height: img.Height, Bytes: len(img.Data)}
	switch {
	case !slices.Contains(shownMIME, img.MIME):
		ref.Note = fmt.Sprintf("not shown: type %q is not one of %s", img.MIME, strings.Join(shownMIME, ", "))
		return ref, nil
	case len(img.Data) == 0:
		ref.Note = "not shown: the image is empty"
		return ref, nil
	case len(img.Data) > st.maxOne:
		ref.Note = fmt.Sprintf("not shown: %d bytes, more than the %d kept for one image (the run log has it)", len(img.Data), st.maxOne)
		return ref, nil
	}
	if old := st.byKey[key]; old != nil {
		st.dropLocked(old)
	}
	k := &keptImage{key: key, mime: img.MIME, data: slices.Clone(img.Data)}
	k.elem = st.order.PushBack(k)
	st.byKey[key] = k
	st.total += len(k.data)
	for e := st.order.Front(); e != nil && st.total > st.max; {
		next := e.Next()
		if old := e.Value.(*keptImage); old != k {
			st.dropLocked(old)
		}
		e = next
	}
	ref.URL = url
	return ref, k
}

// dropLocked forgets one image (a camera's latest frame keeps its bytes).
func (st *imageStore) dropLocked(k *keptImage) {
	if st.byKey[k.key] != k {
		return
	}
	delete(st.byKey, k.key)
	st.order.Remove(k.elem)
	st.total -= len(k.data)
}

// setLatestLocked records a camera's newest frame; past maxCameras the
// camera updated longest ago is forgotten.
func (st *imageStore) setLatestLocked(camera string, f Frame, k *keptImage) {
	f.Latest = "/v1/cameras/" + url.PathEscape(camera) + "/latest"
	st.latest[camera] = f
	st.latestImage[camera] = k
	st.cameraUpdated = slices.DeleteFunc(st.cameraUpdated, func(c string) bool { return c == camera })
	st.cameraUpdated = append(st.cameraUpdated, camera)
	for len(st.cameraUpdated) > maxCameras {
		delete(st.latest, st.cameraUpdated[0])
		delete(st.latestImage, st.cameraUpdated[0])
		st.cameraUpdated = st.cameraUpdated[1:]
	}
}

// frames returns every camera's latest frame, by camera name.
func (st *imageStore) frames() []Frame {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]Frame, 0, len(st.latest))
	for _, c := range slices.Sorted(maps.Keys(st.latest)) {
		out = append(out, st.latest[c])
	}
	return out
}

func (st *imageStore) get(key string) (*keptImage, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	k, ok := st.byKey[key]
	return k, ok
}

func (st *imageStore) latestOf(camera string) (*keptImage, Frame, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	k, ok := st.latestImage[camera]
	return k, st.latest[camera], ok
}

func (s *Server) handleEventImage(w http.ResponseWriter, r *http.Request) {
	task, ok := pathID(w, r)
	if !ok {
		return
	}
	seq, err1 := strconv.Atoi(r.PathValue("event"))
	n, err2 := strconv.Atoi(r.PathValue("n"))
	if err1 != nil || err2 != nil || seq <= 0 || n < 0 {
		writeError(w, http.StatusBadRequest, "event and image: want a positive event id and an image index from 0")
		return
	}
	s.serveKept(w, r, fmt.Sprintf("t%d-e%d-i%d", task, seq, n))
}

func (s *Server) handleCandidateImage(w http.ResponseWriter, r *http.Request) {
	q, ok := pathID(w, r)
	if !ok {
		return
	}
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 0 {
		writeError(w, http.StatusBadRequest, "candidate: want an index from 0")
		return
	}
	s.serveKept(w, r, fmt.Sprintf("q%d-c%d", q, n))
}

// serveKept answers an image by its key. With v= this server run's id the
// URL is the image's for good: cached as immutable.
func (s *Server) serveKept(w http.ResponseWriter, r *http.Request, key string) {
	v := r.URL.Query().Get("v")
	if v != "" && v != s.images.instance {
		writeError(w, http.StatusNotFound, "this image belongs to another run of the server")
		return
	}
	k, ok := s.images.get(key)
	if !ok {
		writeError(w, http.StatusNotFound, "no such image kept (the server keeps the latest images only; the run log has them all)")
		return
	}
	cache := "private, no-cache"
	if v != "" {
		cache = "private, max-age=31536000, immutable"
	}
	writeImage(w, r, k, s.images.instance, cache)
}

func (s *Server) handleCameraLatest(w http.ResponseWriter, r *http.Request) {
	camera := r.PathValue("camera")
	k, f, ok := s.images.latestOf(camera)
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no frame of camera %q kept", camera))
		return
	}
	// The frame's own URL, for a client that wants to keep this one.
	w.Header().Set("Content-Location", f.URL)
	writeImage(w, r, k, s.images.instance, "private, no-cache")
}

// writeImage answers one kept image: its declared raster type, never
// sniffed, never a document; a matching If-None-Match is 304.
func writeImage(w http.ResponseWriter, r *http.Request, k *keptImage, instance, cache string) {
	h := w.Header()
	etag := `"` + instance + "-" + k.key + `"`
	h.Set("ETag", etag)
	h.Set("Cache-Control", cache)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatches(inm, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", k.mime)
	h.Set("Content-Length", strconv.Itoa(len(k.data)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(k.data) // the client has gone: nothing to tell it
	}
}

// etagMatches reads an If-None-Match list (weak comparison).
func etagMatches(header, etag string) bool {
	for t := range strings.SplitSeq(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}
