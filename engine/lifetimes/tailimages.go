package lifetimes

import (
	"bytes"

	"github.com/thea-harness/thea/engine/model"
)

// tailImages are the observation's camera images as the Refreshed tail
// states them: each after its label (model.ImageLabel), so the model reads
// which camera took which picture. A frame byte-identical to a tool image
// this same request already carries (get_image shows the camera's latest
// frame, which the next observation repeats while nothing moved) is named,
// not sent again: one request never holds the same image twice.
func (s *Store) tailImages() []model.Part {
	parts := make([]model.Part, 0, 2*len(s.obsImages))
	for i := range s.obsImages {
		img := &s.obsImages[i]
		label := model.ImageLabel(img)
		if tool := s.pendingCopy(img.Data); tool != "" {
			parts = append(parts, model.Part{Text: "\n" + label + " the same frame as the " + tool + " result above."})
			continue
		}
		parts = append(parts, model.Part{Text: "\n" + label}, model.Part{Image: img})
	}
	return parts
}

// pendingCopy names the tool whose result, still to be sent with the next
// request, holds an image of exactly these bytes ("" when none does).
func (s *Store) pendingCopy(data []byte) string {
	if s.pending == 0 || len(data) == 0 {
		return ""
	}
	for i := len(s.acc) - 1; i >= 0; i-- {
		e := &s.acc[i]
		if !e.pending {
			continue
		}
		for _, p := range e.msg.Parts {
			if p.Image != nil && bytes.Equal(p.Image.Data, data) {
				if e.msg.Name == "" {
					return "tool"
				}
				return e.msg.Name
			}
		}
	}
	return ""
}
