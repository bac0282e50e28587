package scenegraph

import (
	"strings"

	"github.com/thea-harness/thea/world"
)

// inGraphFrame leaves out the positions of detections given in another
// frame than the graph's (a camera frame no transform reached): the graph
// cannot place them, and a camera-frame position read as a map position
// would match and move the wrong objects. The detection itself is kept.
func (g *Graph) inGraphFrame(dets []world.Detection) []world.Detection {
	var out []world.Detection
	for i, d := range dets {
		if d.Position == nil || d.Frame == "" || strings.TrimPrefix(d.Frame, "/") == g.frame {
			if out != nil {
				out = append(out, d)
			}
			continue
		}
		if out == nil {
			out = append(make([]world.Detection, 0, len(dets)), dets[:i]...)
		}
		d.Position = nil
		out = append(out, d)
	}
	if out == nil {
		return dets
	}
	return out
}
