package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Summary is a tool's experience as it returns to the model at task start:
// pinned entries first, then newest and most confident first, one "- text"
// line each, at most maxChars characters in all (a last line says how many
// were left out). A tool without experience gives "". The tool name is
// checked, and the file is read through the one reader under the
// directory's root, so neither a name nor a symlink can reach outside dir,
// and a file past the memory-file limit is refused.
func Summary(ctx context.Context, dir, tool string, maxChars int) (string, error) {
	rel, err := experienceRel(tool)
	if err != nil {
		return "", fmt.Errorf("memory: %w", err)
	}
	s, err := NewStore(Config{Dir: dir})
	if err != nil {
		return "", err
	}
	return s.summarise(ctx, rel, maxChars)
}

// MemorySummary is MEMORY.md in the same bounded form, for Resident
// context: however long the file, at most maxChars characters of it reach
// the model.
func MemorySummary(ctx context.Context, dir string, maxChars int) (string, error) {
	s, err := NewStore(Config{Dir: dir})
	if err != nil {
		return "", err
	}
	return s.summarise(ctx, MemoryFile, maxChars)
}

func (s *Store) summarise(ctx context.Context, rel string, maxChars int) (string, error) {
	if maxChars <= 0 {
		return "", errors.New("memory: a summary needs a positive size bound")
	}
	text, err := s.read(ctx, rel)
	if err != nil {
		return "", err
	}
	return summarise(parseDoc(text).entries, maxChars), nil
}

func summarise(es []Entry, maxChars int) string {
	if len(es) == 0 {
		return ""
	}
	var lines []string
	used := 0
	for _, e := range ranked(es) {
		l := "- " + e.Text
		n := utf8.RuneCountInString(l)
		if len(lines) > 0 {
			n++ // newline
		}
		if used+n > maxChars {
			break
		}
		lines = append(lines, l)
		used += n
	}
	if len(lines) == 0 {
		return clip("- "+ranked(es)[0].Text, maxChars)
	}
	for len(lines) < len(es) {
		note := fmt.Sprintf("(%d more not shown)", len(es)-len(lines))
		if used+1+utf8.RuneCountInString(note) <= maxChars {
			lines = append(lines, note)
			break
		}
		if len(lines) == 1 {
			break // the bound has room for one entry and no note
		}
		used -= utf8.RuneCountInString(lines[len(lines)-1]) + 1
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}
