package scaffold

import (
	"fmt"
	"slices"
	"strings"
)

// Perception of a draft: the pose (Odometry, a TF lookup or a
// PoseStamped), the TF topics, joint states, the end effector's pose,
// detections and what the gripper holds, each chosen from the graph and
// what was sampled of it, each guess with its REVIEW line.

// perception is what the drafted observation reads beside cameras.
type perception struct {
	// Frame is the scene's frame: the pose's frame, which detections are
	// given in and the Scene Graph keeps ("map" without TF).
	Frame string
	Pose  *poseSource
	// TF, TFStatic are the TF topics ("" for none); declared when a lookup
	// or a detector's transform reads them.
	TF, TFStatic string
	// Base is the robot's base frame in TF ("" when not heard); Heard is
	// every frame TF named while drafting.
	Base        string
	Heard       []string
	EndEffector *poseSource
	Joints      string // a JointState topic
	// ArmJoints are the joints Joints named while drafting, the gripper's
	// left out: a trajectory's default joint_names.
	ArmJoints  []string
	Held       *heldSource
	Detections []detectionSource
	Review     []string // REVIEW lines of the observation block
}

// poseSource is a pose: a topic of Type, or the TF lookup Child in Parent.
type poseSource struct {
	Topic, Type   string
	Parent, Child string
	Review        []string
}

type heldSource struct {
	Topic, Type, Value string
	Review             []string
}

type detectionSource struct {
	Name, Topic, Type, Frame string
	Review                   []string
}

// Frame names tried, in order: the scene's frame, the base and the end
// effector (ROS-Industrial's tool0 first).
var (
	sceneFrames = []string{"map", "world", "odom"}
	baseFrames  = []string{"base_link", "base_footprint", "base"}
	eeFrames    = []string{"tool0", "tcp", "tool_link", "ee_link", "end_effector_link", "end_effector", "flange",
		"gripper_link", "grasp_link", "panda_hand", "hand"}
	gripperWords = []string{"finger", "gripper", "jaw", "knuckle", "hand", "claw"}
	eeTopicWords = []string{"end_effector", "ee", "tool", "tcp", "gripper"}
)

// heldOpenTolerance is how far (in the joint's unit) the gripper may be
// from its open position and still hold nothing.
const heldOpenTolerance = 0.005

func (d *draft) perception(byType map[string][]string, s *sampled) {
	p := &d.Perception
	p.Frame = "map"
	p.Heard = s.frames()
	if tf := byType[tTF]; len(tf) > 0 {
		p.TF, p.TFStatic = "/tf", "/tf_static"
		if !slices.Contains(tf, "/tf") {
			p.TF = tf[0]
		}
	}
	d.basePose(byType, s)
	d.jointStates(byType, s)
	d.endEffector(byType, s)
	d.detections(byType, s)
	d.held(byType, s)
	if !d.usesTF() {
		p.TF, p.TFStatic = "", ""
	}
}

// basePose: the TF lookup of the base in the scene's frame, else Odometry
// (/odom first), else a PoseStamped whose name says pose, else a pending
// lookup to finish when the graph has TF. A pose is labelled only with the
// frame it is in: a topic's frame is the one it was heard in while
// drafting (an Odometry's is usually odom, never map); one not heard
// leaves the pose out, with a REVIEW line.
func (d *draft) basePose(byType map[string][]string, s *sampled) {
	p := &d.Perception
	if b := byType[tBattery]; len(b) > 0 {
		d.Battery = b[0]
	}
	odom := prefer(byType[tOdometry], "/odom")
	scene := firstFrame(s, sceneFrames, "")
	if scene == "" && p.TF != "" {
		// No usual name: the root of the tree the base is in.
		if base := firstFrame(s, baseFrames, ""); base != "" {
			scene = s.root(base)
		}
	}
	if base := firstFrame(s, baseFrames, scene); p.TF != "" && scene != "" && base != "" {
		p.Frame, p.Base = scene, base
		p.Pose = &poseSource{Parent: scene, Child: base}
		p.Pose.Review = append(p.Pose.Review, fmt.Sprintf("the pose is %s's in %s, looked up in TF (the frames heard while drafting: %s): check that these are the robot's base and the frame its world is given in", base, scene, listed(s.frames())))
		d.note(odom, "Odometry topics are not read: the pose is the base's in "+scene+" through TF")
		return
	}
	if len(odom) > 0 {
		d.note(odom[1:], "more Odometry topics; the pose reads "+odom[0])
		d.topicPose(odom[0], tOdometry, s, fmt.Sprintf("the pose reads the Odometry %s, in %%s (its header.frame_id while drafting), so the scene's frame is %%s: odometry drifts; for a pose in map, look the base up in TF", safeText(odom[0])))
		return
	}
	for _, t := range byType[tPoseStamped] {
		if hasWholeWord(t, []string{"pose", "robot_pose", "base_pose"}) && !hasWholeWord(t, append([]string{"goal", "target"}, eeTopicWords...)) {
			d.topicPose(t, tPoseStamped, s, fmt.Sprintf("the pose reads the PoseStamped %s (in %%s): check that it is the robot's own pose (the scene's frame is %%s)", safeText(t)))
			return
		}
	}
	if p.TF != "" {
		heard := "no transform came while drafting"
		if s.tfHeard {
			heard = "the frames heard while drafting (" + listed(s.frames()) + ") have no usual base and world frame"
		}
		d.Pending = append(d.Pending, pendingBlock{
			Review: []string{fmt.Sprintf("the graph has %s and no Odometry, but %s: declare the pose as a TF lookup of the base in the world's frame (check both names):", p.TF, heard)},
			Lines:  []string{`observation: tf: {}`, `observation: pose: {tf: {parent: "map", child: "base_link"}}`},
		})
	}
}

// topicPose reads the pose from a topic in the frame it was heard in,
// which becomes the scene's; a topic not heard while drafting has no
// known frame, so its pose is left out (a pending block) rather than
// labelled with a guess. review takes the frame twice.
func (d *draft) topicPose(topic, typ string, s *sampled, review string) {
	p := &d.Perception
	f := s.frameOf[topic]
	if f == "" {
		line := fmt.Sprintf("observation: pose: {topic: %q, type: %q}", topic, typ)
		if typ == tOdometry {
			line = fmt.Sprintf("observation: pose: {topic: %q}", topic)
		}
		d.Pending = append(d.Pending, pendingBlock{
			Review: []string{fmt.Sprintf("the pose is left out: %s sent no header.frame_id the draft could read while drafting, so the frame its pose is in is not known and the draft does not guess it (an Odometry is usually in odom, not map); set the scene's frame (embodiment.frames, scene_graph.frame) to its frame, or look the base up in TF, then uncomment:", safeText(topic))},
			Lines:  []string{line},
		})
		return
	}
	p.Frame = f
	p.Pose = &poseSource{Topic: topic, Type: typ}
	p.Pose.Review = append(p.Pose.Review, fmt.Sprintf(review, f, f))
}

// firstFrame is the first of names TF named (and linked to other, when
// other is set), or "".
func firstFrame(s *sampled, names []string, other string) string {
	for _, n := range names {
		if s.hasFrame(n) && (other == "" || s.connected(n, other)) {
			return n
		}
	}
	return ""
}

// jointStates: the JointState topic (/joint_states first), and the arm's
// joints it names.
func (d *draft) jointStates(byType map[string][]string, s *sampled) {
	js := prefer(byType[tJointState], "/joint_states")
	if len(js) == 0 {
		return
	}
	p := &d.Perception
	p.Joints = js[0]
	d.note(js[1:], "more JointState topics; joints reads "+js[0])
	for _, n := range s.joints[js[0]].names {
		if !hasWord(n, gripperWords) {
			p.ArmJoints = append(p.ArmJoints, n)
		}
	}
}

// endEffector: a TF lookup of a usual tool frame in the base's (or the
// scene's) frame, else a PoseStamped whose name says tool; an arm (joint
// states) with neither gets a pending lookup.
func (d *draft) endEffector(byType map[string][]string, s *sampled) {
	p := &d.Perception
	parent := p.Base
	if parent == "" {
		parent = firstFrame(s, baseFrames, "")
	}
	if ee := firstFrame(s, eeFrames, parent); p.TF != "" && parent != "" && ee != "" {
		p.EndEffector = &poseSource{Parent: parent, Child: ee}
		p.EndEffector.Review = append(p.EndEffector.Review, fmt.Sprintf("the end effector is %s's pose in %s: check that %s is the tool's frame (the gripper's tip may be another)", ee, parent, ee))
		return
	}
	for _, t := range byType[tPoseStamped] {
		if hasWholeWord(t, eeTopicWords) || hasWord(t, []string{"end_effector", "ee_pose", "tool_pose"}) {
			p.EndEffector = &poseSource{Topic: t, Type: tPoseStamped}
			p.EndEffector.Review = append(p.EndEffector.Review, fmt.Sprintf("the end effector reads the PoseStamped %s: check that it is the tool's pose", safeText(t)))
			return
		}
	}
	if p.Joints != "" && p.TF != "" {
		d.Pending = append(d.Pending, pendingBlock{
			Review: []string{fmt.Sprintf("an arm (%s) whose tool frame was not among the frames heard while drafting (%s): declare the end effector as a TF lookup:", p.Joints, listed(s.frames()))},
			Lines:  []string{`observation: end_effector: {tf: {parent: "base_link", child: "tool0"}}`},
		})
	}
}

// detections: every vision_msgs detection array, its positions given in
// the scene's frame through TF when TF is there.
func (d *draft) detections(byType map[string][]string, s *sampled) {
	p := &d.Perception
	names := newNamer()
	for _, typ := range []string{tDetection3D, tDetection2D} {
		for _, t := range byType[typ] {
			base := strings.TrimSuffix(t, "/detections")
			if base == "" {
				base = t
			}
			det := detectionSource{Name: names.name(base), Topic: t, Type: typ}
			own := s.frameOf[t]
			if typ == tDetection2D {
				det.Review = append(det.Review, fmt.Sprintf("%s is 2D: its boxes are in pixels, so a detection has a position only when the detector fills its hypothesis pose", safeText(t)))
			}
			switch {
			case p.TF != "" && own != "" && (own == p.Frame || s.connected(own, p.Frame)):
				det.Frame = p.Frame
				det.Review = append(det.Review, fmt.Sprintf("%s's positions (in %s while drafting) are given in %s through TF: check the detector's frame", safeText(t), orUnknown(own), p.Frame))
			default:
				det.Review = append(det.Review, fmt.Sprintf("%s's positions stay in the detector's frame (%s while drafting), which each detection carries: declare observation.tf and frame: %q to place them in the world", safeText(t), orUnknown(own), p.Frame))
			}
			p.Detections = append(p.Detections, det)
		}
	}
	if len(p.Detections) > 0 {
		p.Review = append(p.Review, "detections are evidence: after a motion the observation waits for a newer message; a detector that publishes only on change needs evidence: false")
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// held: a String topic whose name says what is held, else the gripper's
// joint of the JointState, taken as holding something when it is away from
// its position while drafting (taken as open).
func (d *draft) held(byType map[string][]string, s *sampled) {
	p := &d.Perception
	for _, t := range byType[tString] {
		if hasWholeWord(t, []string{"held", "holding", "grasped", "held_object", "grasped_object"}) {
			p.Held = &heldSource{Topic: t, Type: tString, Value: "msg.data",
				Review: []string{fmt.Sprintf("held is what %s says: an empty string is nothing held; make what it sends for unknown null (e.g. msg.data == 'unknown' ? nil : msg.data)", safeText(t))}}
			return
		}
	}
	js := s.joints[p.Joints]
	for i, n := range js.names {
		if !hasWord(n, gripperWords) || js.positions[i] == nil {
			continue
		}
		open := *js.positions[i]
		p.Held = &heldSource{Topic: p.Joints, Type: tJointState,
			Value: fmt.Sprintf("let i = findIndex(msg.name, # == '%s'); i < 0 || msg.position[i] == nil ? nil : (abs(msg.position[i] - %s) > %s ? 'something' : '')",
				n, value(open), value(heldOpenTolerance)),
			Review: []string{
				fmt.Sprintf("held reads the gripper joint %s: it was at %s while drafting, taken as open, so away from it the gripper holds 'something' and at it nothing.", n, value(open)),
				"Check the open position and tolerance; a gripper closed on nothing also reads as holding; name what it holds if a topic says (a grasp detector)."},
		}
		return
	}
	if p.Joints != "" {
		p.Review = append(p.Review, fmt.Sprintf("held is not drafted: %s named no gripper joint while drafting (declare held: {topic, type, value} from the gripper's joint or a topic)", p.Joints))
	}
}

// usesTF reports whether a lookup or a detector's transform reads TF.
func (d *draft) usesTF() bool {
	p := d.Perception
	if p.Pose != nil && p.Pose.Parent != "" || p.EndEffector != nil && p.EndEffector.Parent != "" {
		return true
	}
	return slices.ContainsFunc(p.Detections, func(x detectionSource) bool { return x.Frame != "" })
}

// summary names what the observation reads beside cameras, for the
// command's report.
func (p perception) summary() []string {
	var out []string
	describe := func(what string, s *poseSource) {
		switch {
		case s == nil:
		case s.Parent != "":
			out = append(out, fmt.Sprintf("%s from TF (%s in %s)", what, s.Child, s.Parent))
		default:
			out = append(out, fmt.Sprintf("%s from %s", what, s.Topic))
		}
	}
	describe("pose", p.Pose)
	if p.Joints != "" {
		out = append(out, "joints")
	}
	describe("end effector", p.EndEffector)
	for _, d := range p.Detections {
		out = append(out, "detections from "+d.Topic)
	}
	if p.Held != nil {
		out = append(out, "held")
	}
	return out
}
