package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func resourceCatalog(t *testing.T) (c *Catalog, dir, outside string) {
	t.Helper()
	dir, outside = t.TempDir(), t.TempDir()
	write(t, filepath.Join(outside, "secret.md"), "outside the skill")
	write(t, filepath.Join(outside, "dir", "x.md"), "outside too")
	skill := filepath.Join(dir, "open_drawer")
	write(t, filepath.Join(skill, SkillFile), drawer)
	write(t, filepath.Join(skill, "handles.md"), "knobs and bars")
	write(t, filepath.Join(skill, "ref", "table.md"), "| handle | pull |")
	write(t, filepath.Join(skill, ".env"), "TOKEN=1")
	write(t, filepath.Join(skill, "blob.bin"), "PNG\x00\x01")
	write(t, filepath.Join(skill, "big.md"), strings.Repeat("é", MaxResourceBytes)) // 2 bytes each
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(skill, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "dir"), filepath.Join(skill, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("handles.md", filepath.Join(skill, "inside.md")); err != nil {
		t.Fatal(err)
	}
	c, err := Load(t.Context(), []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return c, dir, outside
}

func TestResourceRead(t *testing.T) {
	c, _, _ := resourceCatalog(t)
	for path, want := range map[string]string{"handles.md": "knobs and bars", "ref/table.md": "| handle | pull |",
		"./handles.md": "knobs and bars", "inside.md": "knobs and bars"} {
		got, err := c.Resource(t.Context(), "open_drawer", path)
		if err != nil || got != want {
			t.Errorf("Resource(%q) = %q, %v", path, got, err)
		}
	}
	big, err := c.Resource(t.Context(), "open_drawer", "big.md")
	if err != nil {
		t.Fatal(err)
	}
	body, note, ok := strings.Cut(big, "\n[cut: ")
	if !ok || len(body) > MaxResourceBytes || strings.Trim(body, "é") != "" || !strings.Contains(note, "longer than") {
		t.Fatalf("big resource: %d bytes, note %q", len(body), note)
	}
}

func TestResourceRefusesTraversal(t *testing.T) {
	c, dir, outside := resourceCatalog(t)
	cases := map[string]string{
		"../wipe/SKILL.md":                     `may not contain ".."`,
		"ref/../../open_drawer/handles.md":     `may not contain ".."`,
		"..":                                   `may not contain ".."`,
		filepath.Join(outside, "secret.md"):    "relative to the skill's folder",
		"/etc/passwd":                          "relative to the skill's folder",
		`C:\Windows\win.ini`:                   "relative to the skill's folder",
		`ref\table.md`:                         "separator",
		"handles.md\x00.png":                   "NUL",
		".env":                                 "hidden",
		"":                                     "empty",
		"link.md":                              "is a symlink that leads outside its folder; refused",
		"linkdir/x.md":                         "has no resource",
		"missing.md":                           "has no resource",
		"blob.bin":                             "not a text file",
		filepath.Join(dir, "open_drawer/h.md"): "relative",
	}
	for path, why := range cases {
		got, err := c.Resource(t.Context(), "open_drawer", path)
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("Resource(%q) = %q, %v; want an error saying %q", path, got, err, why)
		}
		if strings.Contains(got, "outside") {
			t.Errorf("Resource(%q) read outside the folder", path)
		}
	}
	if _, err := c.Resource(t.Context(), "fly", "handles.md"); err == nil || !strings.Contains(err.Error(), `unknown skill "fly"`) {
		t.Errorf("unknown skill: %v", err)
	}
}

func FuzzResourcePath(f *testing.F) {
	for _, s := range []string{"a.md", "../x", "a/../../b", "/abs", "./a/./b", "a//b", ".hidden/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rel string) {
		clean, err := resourcePath(rel)
		if err != nil {
			return
		}
		if !filepath.IsLocal(clean) && clean != "." {
			t.Fatalf("resourcePath(%q) = %q, not local", rel, clean)
		}
	})
}
