package model

import (
	"fmt"

	"github.com/thea-harness/thea/world"
)

// ImageLabel is the line written just before an image the model reads, so
// the model can tell which camera took it and how large it is without
// counting the images of a list: `Camera "head" (320x240):`. An image
// without a camera (a tool's own picture) is an `Image`; a size not known
// is left out rather than guessed.
func ImageLabel(img *world.Image) string {
	name := "Image"
	if img.Camera != "" {
		name = fmt.Sprintf("Camera %q", img.Camera)
	}
	if img.Width > 0 && img.Height > 0 {
		return fmt.Sprintf("%s (%dx%d):", name, img.Width, img.Height)
	}
	return name + ":"
}
