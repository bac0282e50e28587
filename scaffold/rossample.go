package scaffold

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/thea-harness/thea/toolsets/rosbridge/graph"
)

// What a draft reads of the graph's messages, beside rosapi's answers:
// the frames TF connects (to choose a pose's lookup), the joints a
// JointState names (the gripper's), what a Bool reads now (its polarity
// when its name does not say) and the frame detections and poses come
// in. Every name comes from outside Thea and is checked before use; a
// silent topic is simply not sampled.

// sampled is what was read; the zero value is "nothing heard".
type sampled struct {
	// parent is each frame's parent, as TF gave it (child → parent).
	parent map[string]string
	// tfHeard: some TF message came (its frames may still be none).
	tfHeard bool
	bools   map[string]bool
	joints  map[string]jointSample
	// frameOf is a topic's header.frame_id (detections, a PoseStamped,
	// an Odometry: the frame its pose is in).
	frameOf map[string]string
}

// jointSample is a JointState's joint names, with their positions (nil:
// null, a NaN).
type jointSample struct {
	names     []string
	positions []*float64
}

// Bounds of what a draft takes from samples.
const (
	maxFrames     = 512
	maxJointNames = 64
)

// rosFrame is a frame name a spec can declare and an expr can quote.
var rosFrame = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_/.-]{0,79}$`)

// jointName is a joint name an expr can quote ('finger_joint').
var jointName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_./-]{0,79}$`)

// sampleRequests are the topics worth reading for a draft: TF, joint
// states, detections, PoseStamped and Odometry topics and Bools, in that
// order, at most graph.MaxSampleTopics.
func sampleRequests(g *graph.Graph) []graph.SampleRequest {
	var out []graph.SampleRequest
	byType := map[string][]string{}
	for _, t := range g.SortedTopics() {
		if typ, ok := canonicalType(g.Topics[t], "msg"); ok && rosName.MatchString(t) {
			byType[typ] = append(byType[typ], t)
		}
	}
	for _, t := range byType[tTF] {
		// The dynamic tree may come from several publishers: a few
		// messages; the static one is latched: what comes at once.
		if strings.Contains(t, "static") {
			out = append(out, graph.SampleRequest{Topic: t, Type: tTF, Count: 1, Keep: 10})
		} else {
			out = append(out, graph.SampleRequest{Topic: t, Type: tTF, Count: 10, Keep: 25})
		}
	}
	for _, typ := range []string{tJointState, tDetection3D, tDetection2D, tPoseStamped, tOdometry, tBool} {
		for _, t := range byType[typ] {
			out = append(out, graph.SampleRequest{Topic: t, Type: typ, Count: 1})
		}
	}
	if len(out) > graph.MaxSampleTopics {
		out = out[:graph.MaxSampleTopics]
	}
	return out
}

// readSamples parses what SampleTopics read; what does not parse, or
// names what a spec cannot declare, is left out.
func readSamples(topics map[string]string, msgs map[string][]json.RawMessage) *sampled {
	s := &sampled{parent: map[string]string{}, bools: map[string]bool{}, joints: map[string]jointSample{}, frameOf: map[string]string{}}
	for _, topic := range slices.Sorted(maps.Keys(msgs)) {
		typ, _ := canonicalType(topics[topic], "msg")
		for _, raw := range msgs[topic] {
			switch typ {
			case tTF:
				s.tfHeard = true
				s.addTF(raw)
			case tBool:
				var m struct{ Data *bool }
				if json.Unmarshal(raw, &m) == nil && m.Data != nil {
					s.bools[topic] = *m.Data
				}
			case tJointState:
				s.addJoints(topic, raw)
			case tDetection3D, tDetection2D, tPoseStamped, tOdometry:
				var m struct {
					Header struct {
						FrameID string `json:"frame_id"`
					} `json:"header"`
				}
				if json.Unmarshal(raw, &m) == nil {
					if f := strings.TrimPrefix(m.Header.FrameID, "/"); rosFrame.MatchString(f) {
						s.frameOf[topic] = f
					}
				}
			}
		}
	}
	return s
}

// addTF folds one TFMessage's parent → child pairs in.
func (s *sampled) addTF(raw json.RawMessage) {
	var m struct {
		Transforms []struct {
			Header struct {
				FrameID string `json:"frame_id"`
			} `json:"header"`
			Child string `json:"child_frame_id"`
		} `json:"transforms"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return
	}
	for _, tr := range m.Transforms {
		p, c := strings.TrimPrefix(tr.Header.FrameID, "/"), strings.TrimPrefix(tr.Child, "/")
		if !rosFrame.MatchString(p) || !rosFrame.MatchString(c) || p == c {
			continue
		}
		if _, ok := s.parent[c]; !ok && len(s.parent) >= maxFrames {
			continue
		}
		s.parent[c] = p
	}
}

func (s *sampled) addJoints(topic string, raw json.RawMessage) {
	var m struct {
		Name     []string   `json:"name"`
		Position []*float64 `json:"position"`
	}
	if json.Unmarshal(raw, &m) != nil || len(m.Position) != len(m.Name) {
		return
	}
	var js jointSample
	for i, n := range m.Name[:min(len(m.Name), maxJointNames)] {
		if jointName.MatchString(n) {
			js.names = append(js.names, n)
			js.positions = append(js.positions, m.Position[i])
		}
	}
	s.joints[topic] = js
}

// hasFrame reports whether TF named the frame.
func (s *sampled) hasFrame(f string) bool {
	if _, ok := s.parent[f]; ok {
		return true
	}
	for _, p := range s.parent {
		if p == f {
			return true
		}
	}
	return false
}

// root is the top of f's tree (f itself when it has no parent); a cycle
// (a broken tree) ends where it closes.
func (s *sampled) root(f string) string {
	seen := map[string]bool{}
	for !seen[f] {
		seen[f] = true
		p, ok := s.parent[f]
		if !ok {
			return f
		}
		f = p
	}
	return f
}

// connected reports whether TF links a and b (one tree).
func (s *sampled) connected(a, b string) bool {
	return s.hasFrame(a) && s.hasFrame(b) && s.root(a) == s.root(b)
}

// frames are every frame TF named, sorted.
func (s *sampled) frames() []string {
	set := map[string]bool{}
	for c, p := range s.parent {
		set[c], set[p] = true, true
	}
	return slices.Sorted(maps.Keys(set))
}
