package lifetimes

import (
	"fmt"
	"strings"

	"github.com/thea-harness/thea/world"
)

// LeaveOutImages replaces every image the next request would carry (the
// observation's camera images and transient tool images not sent yet) by a
// placeholder saying why, and reports how many it replaced. It is the last
// thing a request over its token budget can shed before the turn fails.
func (s *Store) LeaveOutImages(why string) int {
	text := func(img *world.Image) string {
		name := "tool image"
		if img.Camera != "" {
			name = img.Camera + " camera"
		}
		if img.Width > 0 && img.Height > 0 {
			return fmt.Sprintf("[image: %s, %dx%d, left out: %s]", name, img.Width, img.Height, why)
		}
		return fmt.Sprintf("[image: %s, left out: %s]", name, why)
	}
	n := s.replacePending(text)
	if len(s.obsImages) > 0 {
		var b strings.Builder
		b.WriteString(s.observation)
		for i := range s.obsImages {
			b.WriteString("\n")
			b.WriteString(text(&s.obsImages[i]))
		}
		n += len(s.obsImages)
		s.observation, s.obsImages = b.String(), nil
		s.tailOK = false
	}
	return n
}
