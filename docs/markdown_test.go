package docs

import (
	"slices"
	"testing"
)

func TestSlugFollowsGitHub(t *testing.T) {
	for in, want := range map[string]string{
		"The operator's seat: `thea run`":                                    "the-operators-seat-thea-run",
		"`thea eval`: success rates over many seeds, on one machine or many": "thea-eval-success-rates-over-many-seeds-on-one-machine-or-many",
		"`embodiment.lock`":                                                  "embodimentlock",
		"`toolsets.<name>.stop` and `stop_grace`":                            "toolsetsnamestop-and-stop_grace",
		"Summaries (what returns to the model)":                              "summaries-what-returns-to-the-model",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAnchorsSkipCodeAndNumberRepeats(t *testing.T) {
	text := "# Title\n\n```sh\n# not a heading\n```\n\n## Seeds\n\n## Seeds\n"
	a := anchorsOf(text)
	for _, want := range []string{"title", "seeds", "seeds-1"} {
		if !a[want] {
			t.Errorf("anchor %q missing from %v", want, a)
		}
	}
	if a["not-a-heading"] {
		t.Error("a comment inside a fenced block was read as a heading")
	}
}

func TestLinksSkipCode(t *testing.T) {
	text := "see [a](a.md#x) and `[b](b.md)`\n```\n[c](c.md)\n```\n![img](i.png)\n"
	var got []string
	for _, l := range linksOf(text) {
		got = append(got, l.Target)
	}
	if want := []string{"a.md#x", "i.png"}; !slices.Equal(got, want) {
		t.Errorf("Links = %v, want %v", got, want)
	}
}
