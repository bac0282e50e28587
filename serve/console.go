package serve

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

// The operator's console: one page of plain HTML, CSS and JavaScript,
// embedded in the binary, with no build step and nothing fetched from
// elsewhere. Everything it shows comes from the API it is served beside.
//
//go:embed console
var consoleFiles embed.FS

// consoleCSP is the console's policy: only this server's own files, data
// and images; no inline script or style, no plugin, no framing, no form
// posted elsewhere. Untrusted text reaches the page as text only (the
// script never parses HTML), and this policy is the second wall.
const consoleCSP = "default-src 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'; form-action 'self'"

// consoleFile is one embedded file, its type and its validator.
type consoleFile struct {
	body  []byte
	ctype string
	etag  string
}

// consoleHandler serves the page at / and its files at /console/NAME (and
// its icon at /favicon.ico).
func consoleHandler() http.Handler {
	files := map[string]consoleFile{}
	// The embedded tree is fixed at build time: reading it cannot fail.
	_ = fs.WalkDir(consoleFiles, "console", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := consoleFiles.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		files[path.Base(p)] = consoleFile{body: b, ctype: contentType(p), etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		return nil
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := "index.html"
		switch {
		case r.URL.Path == "/favicon.ico": // what a browser asks for a page without one (the report)
			name = "favicon.png"
		case r.URL.Path != "/":
			name = strings.TrimPrefix(r.URL.Path, "/console/")
		}
		f, ok := files[name]
		if !ok || name == "index.html" && r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", consoleCSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		// Revalidated on each load: a new binary's page is seen at once.
		h.Set("Cache-Control", "no-cache")
		h.Set("ETag", f.etag)
		h.Set("Content-Type", f.ctype)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.body))
	})
}

func contentType(p string) string {
	switch path.Ext(p) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".png":
		return "image/png"
	case ".svg": // only our own files are served here
		return "image/svg+xml"
	}
	return "application/octet-stream"
}
