package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

const drawer = "---\nname: open_drawer\ndescription: >\n  Open a drawer\n  by its handle.\nversion: 2\n---\n# Open a drawer\n\nApproach, then see `handles.md`.\n"

func TestParse(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "open_drawer", SkillFile)
	write(t, path, drawer)
	write(t, filepath.Join(dir, "open_drawer", "handles.md"), "knobs and bars")
	write(t, filepath.Join(dir, "open_drawer", "img", "bar.png"), "PNG")
	write(t, filepath.Join(dir, "open_drawer", ".cache"), "hidden")
	s, err := Parse(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "open_drawer" || s.Description != "Open a drawer by its handle." {
		t.Fatalf("front matter = %q %q", s.Name, s.Description)
	}
	if s.Extra["version"] != 2 || !strings.HasPrefix(s.Body, "# Open a drawer") {
		t.Fatalf("extra %v body %q", s.Extra, s.Body)
	}
	if strings.Join(s.Resources, ",") != "handles.md,img/bar.png" {
		t.Fatalf("resources = %v", s.Resources)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"no front matter", "# just markdown\n", "missing front matter"},
		{"unclosed", "---\nname: x\n", "not closed"},
		{"no name", "---\ndescription: d\n---\nbody", "no name"},
		{"empty description", "---\nname: x\ndescription: \"  \"\n---\nbody", "empty description"},
		{"missing description", "---\nname: x\n---\nbody", "empty description"},
		{"bad yaml", "---\nname: [x\n---\n", "not valid YAML"},
		{"name not a string", "---\nname: [a]\ndescription: d\n---\n", `"name" must be a string`},
		{"name with space", "---\nname: open drawer\ndescription: d\n---\n", "one word"},
		{"name with comma", "---\nname: a,b\ndescription: d\n---\n", "one word"},
		{"name with path", "---\nname: ../x\ndescription: d\n---\n", "one word"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseBytes("skills/x/SKILL.md", []byte(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "skills/x/SKILL.md") {
				t.Fatalf("err = %v, want %q naming the file", err, tc.want)
			}
		})
	}
}

func TestParseCRLFAndBOM(t *testing.T) {
	s, err := ParseBytes("a/SKILL.md", []byte("\xef\xbb\xbf---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n"))
	if err != nil || s.Name != "a" || s.Body != "body" {
		t.Fatalf("%+v %v", s, err)
	}
}

func TestLoadCatalog(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	write(t, filepath.Join(a, "open_drawer", SkillFile), drawer)
	write(t, filepath.Join(a, "open_drawer", "handles.md"), "knobs")
	write(t, filepath.Join(b, "wipe", SkillFile), "---\nname: wipe\ndescription: Wipe a surface.\n---\nUse the sponge.")
	write(t, filepath.Join(b, "notes", "README.md"), "not a skill")
	c, err := Load(t.Context(), []string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Render(); got != "Skill Catalog (load a skill with load_skill before a task it covers):\n- open_drawer: Open a drawer by its handle.\n- wipe: Wipe a surface.\n" {
		t.Fatalf("Render = %q", got)
	}
	if strings.Join(c.Names(), ",") != "open_drawer,wipe" {
		t.Fatalf("Names = %v", c.Names())
	}
	body, err := c.Body("open_drawer")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, "Approach") || !strings.HasSuffix(body, "read_skill_resource only when the instructions above call for it): handles.md") {
		t.Fatalf("Body = %q", body)
	}
	if strings.Contains(body, "knobs") {
		t.Fatal("a resource was read into the body")
	}
	if body, _ := c.Body("wipe"); body != "Use the sponge." {
		t.Fatalf("Body without resources = %q", body)
	}
	if _, err := c.Body("fly"); err == nil || !strings.Contains(err.Error(), "open_drawer, wipe") {
		t.Fatalf("unknown skill: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	write(t, filepath.Join(a, "wipe", SkillFile), "---\nname: wipe\ndescription: one\n---\n")
	write(t, filepath.Join(b, "wipe2", SkillFile), "---\nname: wipe\ndescription: two\n---\n")
	write(t, filepath.Join(b, "broken", SkillFile), "no front matter")
	_, err := Load(t.Context(), []string{a, b, filepath.Join(a, "missing")})
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		filepath.Join(b, "wipe2", SkillFile) + `: skill "wipe" is already defined in ` + filepath.Join(a, "wipe", SkillFile),
		filepath.Join(b, "broken", SkillFile) + ": missing front matter",
		"missing",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("error %q lacks %q", err, want)
		}
	}
}

func FuzzParseBytes(f *testing.F) {
	f.Add([]byte(drawer))
	f.Add([]byte("---\nname: a\ndescription: b\n---"))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("---\r\nname: a\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseBytes("f/SKILL.md", data)
		if err != nil {
			if !strings.Contains(err.Error(), "f/SKILL.md") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if s.Name == "" || s.Description == "" {
			t.Fatalf("accepted a skill without name or description: %+v", s)
		}
	})
}

// A YAML error names the line of the file, not of the front matter.
func TestParseYAMLErrorLine(t *testing.T) {
	_, err := ParseBytes("s/SKILL.md", []byte("---\nname: a\ndescription: d\nname: b\n---\nbody"))
	if err == nil || !strings.Contains(err.Error(), "line 4") {
		t.Fatalf("err = %v, want it to point at line 4 of the file", err)
	}
}
