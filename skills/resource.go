package skills

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/thea-harness/thea/internal/readfile"
)

// MaxResourceBytes bounds what one resource read returns (the one reader's
// limit for a skill resource); a longer file is cut there, and the answer
// says so.
const MaxResourceBytes = 32 << 10

// Resource reads one of a skill's resource files. rel is relative to the
// skill's folder, with '/' separators, and must name a file listed when the
// skill was parsed: no absolute path, no "..", no hidden file. The file is
// opened through an os.Root on the folder, so a symlink that leads out of
// it is refused too, and so is anything but a regular file (a FIFO would
// wedge the session). Text only; at most MaxResourceBytes are returned.
func (c *Catalog) Resource(ctx context.Context, name, rel string) (string, error) {
	s, ok := c.skills[name]
	if !ok {
		return "", fmt.Errorf("unknown skill %q", name)
	}
	clean, err := resourcePath(rel)
	if err != nil {
		return "", fmt.Errorf("skill %q: resource %q: %w", name, rel, err)
	}
	if !slices.Contains(s.Resources, clean) {
		have := "it has none"
		if len(s.Resources) > 0 {
			have = "it has: " + strings.Join(s.Resources, ", ")
		}
		return "", fmt.Errorf("skill %q has no resource %q (%s)", name, rel, have)
	}
	root, err := readfile.OpenRoot(s.Dir)
	if err != nil {
		return "", fmt.Errorf("skill %q: %w", name, err)
	}
	defer root.Close()
	b, cut, err := readfile.HeadIn(ctx, root, clean, readfile.SkillResource)
	if err != nil {
		// The model reads this: say why without the folder's local path.
		switch {
		case errors.Is(err, readfile.ErrOutside):
			return "", fmt.Errorf("skill %q: resource %q is a symlink that %w; refused", name, rel, readfile.ErrOutside)
		case errors.Is(err, readfile.ErrNotRegular):
			return "", fmt.Errorf("skill %q: resource %q is %w; refused", name, rel, readfile.ErrNotRegular)
		}
		return "", fmt.Errorf("skill %q: resource %q: %w", name, rel, err)
	}
	if cut {
		// Do not split the last character.
		for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
			if utf8.RuneStart(b[i]) {
				if !utf8.FullRune(b[i:]) {
					b = b[:i]
				}
				break
			}
		}
	}
	if !utf8.Valid(b) || slices.Contains(b, 0) {
		return "", fmt.Errorf("skill %q: resource %q is not a text file", name, rel)
	}
	text := string(b)
	if cut {
		text += fmt.Sprintf("\n[cut: the file is longer than %d bytes; the rest is not shown]", MaxResourceBytes)
	}
	return text, nil
}

// resourcePath checks a model-given path and returns it cleaned.
func resourcePath(rel string) (string, error) {
	switch {
	case rel == "":
		return "", errors.New("the path is empty")
	case strings.ContainsRune(rel, 0):
		return "", errors.New("the path holds a NUL byte")
	case strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, `\`) || (len(rel) > 1 && rel[1] == ':'):
		return "", errors.New("the path must be relative to the skill's folder")
	case strings.Contains(rel, `\`):
		return "", errors.New(`use '/' as the separator`)
	}
	for _, el := range strings.Split(rel, "/") {
		if el == ".." {
			return "", errors.New(`the path may not contain ".."`)
		}
		if strings.HasPrefix(el, ".") && el != "." {
			return "", errors.New("hidden files are not resources")
		}
	}
	return path.Clean(rel), nil
}
