package rosbridge

import (
	"maps"
	"slices"
	"strings"

	"github.com/thea-harness/thea/toolsets/rosbridge/perception"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// newTF is the toolset's TF tree, nil when no observation.tf is declared.
func (p *plan) newTF() *perception.Buffer {
	if o := p.cfg.Observation; o != nil && o.TF != nil {
		return perception.NewBuffer()
	}
	return nil
}

// tfReceiver folds a TF topic's every message into b; nil for any other
// topic (or no TF).
func (p *plan) tfReceiver(b *perception.Buffer, topic string) func(wire.Message) {
	if b == nil {
		return nil
	}
	switch tf := p.cfg.Observation.TF; topic {
	case tf.StaticTopic:
		return b.Receiver(true)
	case tf.Topic:
		return b.Receiver(false)
	}
	return nil
}

// poseType is a pose topic's type: the declared one, else def.
func poseType(declared, def string) string {
	if declared != "" {
		return declared
	}
	return def
}

// poseSource is a pose's source: its topic, or a lookup in TF.
func (p *plan) poseSource(name string, d PoseDecl, of func(name, topic string, f Freshness) source) source {
	if d.TF == nil {
		return of(name, d.Topic, d.Freshness)
	}
	s := of(name, p.cfg.Observation.TF.Topic, d.Freshness)
	s.lookup = d.TF
	return s
}

// perceptionSources are the observation's perception sources, named as
// age_s names them: detections.<name>, held, joints, end_effector,
// frames.<name>.
func (p *plan) perceptionSources(of func(name, topic string, f Freshness) source) []source {
	o := p.cfg.Observation
	var out []source
	for _, k := range slices.Sorted(maps.Keys(o.Detections)) {
		out = append(out, of("detections."+k, o.Detections[k].Topic, o.Detections[k].Freshness))
	}
	if o.Held != nil {
		out = append(out, of("held", o.Held.Topic, o.Held.Freshness))
	}
	if o.Joints != nil {
		out = append(out, of("joints", o.Joints.Topic, o.Joints.Freshness))
	}
	if o.EndEffector != nil {
		out = append(out, p.poseSource("end_effector", *o.EndEffector, of))
	}
	for _, k := range slices.Sorted(maps.Keys(o.Frames)) {
		out = append(out, p.poseSource("frames."+k, o.Frames[k], of))
	}
	return out
}

// tfStaticPath is where the static TF topic is declared. A graph may
// lack it (no static broadcaster): --live does not require it.
const tfStaticPath = "observation.tf.static_topic"

// perceptionUses are the topics perception reads, for subscribing and
// --live: TF (a long queue: /tf_static's latched burst must all arrive),
// detectors, held, joints, and pose topics.
func (o *ObservationDecl) perceptionUses() []topicUse {
	var out []topicUse
	if o.TF != nil {
		tfSub := SubscribeDecl{QueueLength: perception.TFQueueLength}
		out = append(out, topicUse{"observation.tf", o.TF.Topic, perception.TypeTFMessage, tfSub},
			topicUse{tfStaticPath, o.TF.StaticTopic, perception.TypeTFMessage, tfSub})
	}
	for _, k := range slices.Sorted(maps.Keys(o.Detections)) {
		d := o.Detections[k]
		out = append(out, topicUse{"observation.detections." + k, d.Topic, d.Type, d.SubscribeDecl})
	}
	if h := o.Held; h != nil {
		out = append(out, topicUse{"observation.held", h.Topic, h.Type, h.SubscribeDecl})
	}
	if j := o.Joints; j != nil {
		out = append(out, topicUse{"observation.joints", j.Topic, typeJointState, j.SubscribeDecl})
	}
	if e := o.EndEffector; e != nil && e.Topic != "" {
		out = append(out, topicUse{"observation.end_effector", e.Topic, poseType(e.Type, typePoseStamped), e.SubscribeDecl})
	}
	for _, k := range slices.Sorted(maps.Keys(o.Frames)) {
		if f := o.Frames[k]; f.Topic != "" {
			out = append(out, topicUse{"observation.frames." + k, f.Topic, poseType(f.Type, typePoseStamped), f.SubscribeDecl})
		}
	}
	return out
}

// valueAt is the value expr read at a perception topic use ("" for none),
// for --live to check what it reads.
func (c Config) valueAt(path string) string {
	o := c.Observation
	if o == nil {
		return ""
	}
	if path == "observation.held" && o.Held != nil {
		return o.Held.Value
	}
	if k, ok := strings.CutPrefix(path, "observation.detections."); ok {
		return o.Detections[k].Value
	}
	return ""
}
