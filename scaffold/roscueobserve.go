package scaffold

import (
	"fmt"
	"slices"
)

// The drafted observation written as CUE: cameras, TF, the pose, the
// joints, the end effector, detections and what is held, each guess with
// its REVIEW line; and the embodiment's frames from TF.

// frames are the embodiment's frames: the scene's first (the Scene
// Graph's), then the base and the tool when TF names them.
func (d *draft) frames() []any {
	p := d.Perception
	out := []any{inline("name", p.Frame, "description", fmt.Sprintf("the %s frame, metres", p.Frame))}
	if p.Base != "" {
		out = append(out, inline("name", p.Base, "description", "the robot's base"))
	}
	if e := p.EndEffector; e != nil && e.Child != "" {
		out = append(out, inline("name", e.Child, "description", "the tool's frame (end_effector)"))
	}
	return out
}

// cameraFrame is the TF frame named after a camera (wrist_camera_optical_frame
// for wrist_camera, optical first), else a placeholder of that form.
func (d *draft) cameraFrame(c draftCamera) string {
	want := c.Name + "_optical_frame"
	for _, f := range []string{want, c.Name + "_color_optical_frame", c.Name + "_link", c.Name + "_frame"} {
		if slices.Contains(d.Perception.Heard, f) {
			return f
		}
	}
	return want
}

func (d *draft) observation(w *cueWriter) {
	if !d.observes() {
		return
	}
	p := d.Perception
	w.comment("The observation tool: what the model sees before each decision. Cameras, the pose, the joints,")
	w.comment("detections and what is held are evidence: after a motion the observation waits for messages newer")
	w.comment("than it (a lookup through static transforms only is never stale).")
	w.open("observation")
	w.field("max_age", "2s")
	if len(d.Cameras) > 0 {
		w.open("cameras")
		for _, c := range d.Cameras {
			if c.Type == tImage {
				w.field(c.Name, inline("topic", c.Topic, "type", c.Type))
			} else {
				w.field(c.Name, inline("topic", c.Topic))
			}
		}
		w.close()
	}
	if p.TF != "" {
		w.comment("The TF topics the lookups read; /tf_static's latched transforms are kept for good.")
		if p.TF == "/tf" && p.TFStatic == "/tf_static" {
			w.field("tf", raw("{}"))
		} else {
			w.field("tf", inline("topic", p.TF, "static_topic", p.TFStatic))
		}
	}
	if p.Pose != nil {
		pose(w, "pose", *p.Pose)
	}
	if p.Joints != "" {
		w.comment("Joint positions (joints) and states (joint_states), by joint name.")
		w.field("joints", inline("topic", p.Joints))
	}
	if p.EndEffector != nil {
		pose(w, "end_effector", *p.EndEffector)
	}
	for _, r := range p.Review {
		w.review("%s", r)
	}
	if len(p.Detections) > 0 {
		w.open("detections")
		for _, x := range p.Detections {
			for _, r := range x.Review {
				w.review("%s", r)
			}
			kv := []any{"topic", x.Topic, "type", x.Type}
			if x.Frame != "" {
				kv = append(kv, "frame", x.Frame)
			}
			w.field(x.Name, inline(kv...))
		}
		w.close()
	}
	if h := p.Held; h != nil {
		for _, r := range h.Review {
			w.review("%s", r)
		}
		w.field("held", inline("topic", h.Topic, "type", h.Type, "value", h.Value))
	}
	if d.Battery != "" {
		w.comment("The battery is slow and says nothing of a motion: its latest message serves while under 5 s old.")
		w.field("state", raw("battery: "+string(inline("topic", d.Battery, "type", tBattery, "value", "msg.percentage", "evidence", false, "max_age", "5s"))))
	}
	w.close()
}

// pose writes a pose source: a topic, or a TF lookup.
func pose(w *cueWriter, key string, p poseSource) {
	for _, r := range p.Review {
		w.review("%s", r)
	}
	switch {
	case p.Parent != "":
		w.field(key, inline("tf", inline("parent", p.Parent, "child", p.Child)))
	case p.Type == tOdometry && key == "pose":
		w.field(key, inline("topic", p.Topic))
	default:
		w.field(key, inline("topic", p.Topic, "type", p.Type))
	}
}
