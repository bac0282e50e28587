package scaffold

import (
	"fmt"
	"slices"
	"strings"

	"github.com/thea-harness/thea/toolsets/rosbridge/graph"
)

// draft is a spec drafted from a ROS 2 graph: the typed form the CUE text
// is written from. Every list is in a fixed order (by name), so the same
// graph always gives the same file.
type draft struct {
	Name, URL, TokenEnv string
	// Review are the file's opening REVIEW notes: what rosapi could not
	// answer and what was left out.
	Review    []string
	Tools     []draftTool
	Cameras   []draftCamera
	Battery   string // a BatteryState topic; "" for none
	Clearance string // a LaserScan topic; "" for none
	Readings  []draftReading
	// Perception is what the observation reads beside cameras
	// (rosperception.go).
	Perception perception
	// CmdVel is the Twist topic a zero velocity is published on at the
	// kill when no stop is declared.
	CmdVel string
	// StopService is the robot's own stop service, declared as the
	// toolset's stop path (rosbridge.stop.service) with StopRequest; ""
	// for none. Only a service whose stopping request is known is one
	// (rosstop.go); StopReview says what to check of it.
	StopService, StopServiceType, StopRequest string
	StopReview                                string
	// stops are the candidates for the stop path.
	stops []stopCandidate
	// Pending are commented-out blocks for what a draft should not declare
	// on a guess (an e-stop publish, whose polarity it cannot know; a TF
	// lookup between frames it did not hear) or what rosapi could not
	// describe.
	Pending []pendingBlock
}

// draftTool is one action or service tool and its contract.
type draftTool struct {
	Name, Description string
	Action            bool // else a service
	ROSName, Type     string
	Args              []draftArg
	Goal              string // the goal or request expr
	// Success and Reason judge a service's response or an action's
	// result; SuccessReview says what to check of a guessed one.
	Success, Reason string
	SuccessReview   string
	Physical        bool
	BaseMotion      bool
	// Disabled: written commented out (a physical action with no stop path).
	Disabled bool
	Review   []string
}

// draftArg is one tool argument: a scalar, an array of Items or an
// object of Properties (in the message's field order).
type draftArg struct {
	Name, Type, Description string
	Optional                bool
	Default                 string // the expr an optional argument defaults to
	Minimum                 *float64
	Items                   *draftArg
	MaxItems                int
	Properties              []draftArg
}

type draftCamera struct{ Name, Topic, Type string }

// draftReading is one safety reading and the rule that blocks on it.
type draftReading struct {
	Name, Topic, Type string
	Bool              bool
	// SafeWhen is a Bool's value when motion is safe.
	SafeWhen bool
	Review   string
}

// pendingBlock is a commented-out block: why, then the lines to declare.
type pendingBlock struct {
	Review []string
	Lines  []string
}

// Bounds of a draft.
const (
	maxCameras  = 4
	maxReadings = 16
	maxListed   = 12 // names listed in one REVIEW note
)

// distanceThreshold is the distance in metres below which a drafted rule
// blocks motion: conservative, for the integrator to set from the risk
// assessment.
const distanceThreshold = 1.0

// Message types a draft reads.
const (
	tCompressed  = "sensor_msgs/msg/CompressedImage"
	tImage       = "sensor_msgs/msg/Image"
	tOdometry    = "nav_msgs/msg/Odometry"
	tPoseStamped = "geometry_msgs/msg/PoseStamped"
	tJointState  = "sensor_msgs/msg/JointState"
	tDetection3D = "vision_msgs/msg/Detection3DArray"
	tDetection2D = "vision_msgs/msg/Detection2DArray"
	tString      = "std_msgs/msg/String"
	tLaserScan   = "sensor_msgs/msg/LaserScan"
	tBattery     = "sensor_msgs/msg/BatteryState"
	tBool        = "std_msgs/msg/Bool"
	tFloat32     = "std_msgs/msg/Float32"
	tFloat64     = "std_msgs/msg/Float64"
	tRange       = "sensor_msgs/msg/Range"
	tTwist       = "geometry_msgs/msg/Twist"
	tTF          = "tf2_msgs/msg/TFMessage"
)

// newDraft classifies g into a draft, with what was sampled of its
// messages (nil: nothing). Each role has its own function, so a new one is
// one more function here.
func newDraft(name, url, tokenEnv string, g *graph.Graph, s *sampled) *draft {
	if s == nil {
		s = readSamples(nil, nil)
	}
	d := &draft{Name: name, URL: url, TokenEnv: tokenEnv}
	for _, n := range g.Notes {
		d.Review = append(d.Review, safeNote(n))
	}
	byType := d.topicsByType(g)
	d.cameras(byType)
	d.perception(byType, s)
	d.clearance(byType)
	d.readings(byType, s)
	d.stopTopics(byType)
	tools := newToolNamer("observe", "clearance", "readings")
	goals := goalContext{frame: d.Perception.Frame, jointNames: d.Perception.ArmJoints}
	for _, e := range g.Actions {
		d.action(e, tools, goals)
	}
	for _, e := range g.Services {
		d.service(e, tools, goals)
	}
	d.chooseStop()
	d.disableUnstoppable()
	for _, r := range tools.renamed {
		d.Review = append(d.Review, fmt.Sprintf("%s is drafted as the tool %s: %s is a tool of the core toolset (tool names are shared by every toolset)", safeText(r.from), r.name, r.clash))
	}
	slices.SortFunc(d.Tools, func(a, b draftTool) int { return strings.Compare(a.Name, b.Name) })
	d.bound()
	return d
}

// topicsByType groups the topics a draft can declare by their canonical
// type; a name or type that cannot be declared is noted and left out.
func (d *draft) topicsByType(g *graph.Graph) map[string][]string {
	out := map[string][]string{}
	var odd []string
	for _, t := range g.SortedTopics() {
		typ, ok := canonicalType(g.Topics[t], "msg")
		if !rosName.MatchString(t) || !ok {
			odd = append(odd, t)
			continue
		}
		out[typ] = append(out[typ], t)
	}
	d.note(odd, "topics whose name or type a spec cannot declare were left out")
	return out
}

// note adds a REVIEW note listing names (at most maxListed of them).
func (d *draft) note(names []string, what string) {
	if len(names) == 0 {
		return
	}
	d.Review = append(d.Review, fmt.Sprintf("%d %s: %s", len(names), what, listed(names)))
}

func listed(names []string) string {
	var parts []string
	for _, n := range names[:min(len(names), maxListed)] {
		parts = append(parts, safeText(n))
	}
	s := strings.Join(parts, ", ")
	if len(names) > maxListed {
		s += fmt.Sprintf(", … (%d more)", len(names)-maxListed)
	}
	return s
}

// prefer orders topics with the preferred name first, then by name.
func prefer(topics []string, want string) []string {
	out := slices.Clone(topics)
	slices.SortStableFunc(out, func(a, b string) int {
		switch {
		case a == want && b != want:
			return -1
		case b == want && a != want:
			return 1
		}
		return 0
	})
	return out
}

// cameras: compressed and raw images (a raw topic whose compressed twin
// exists is left to the twin; depth images are not cameras the model reads).
func (d *draft) cameras(byType map[string][]string) {
	compressed := byType[tCompressed]
	var all []draftCamera
	var skipped []string
	for _, t := range byType[tImage] {
		switch {
		case slices.Contains(compressed, t+"/compressed"):
		case strings.Contains(strings.ToLower(t), "depth"):
			skipped = append(skipped, t)
		default:
			all = append(all, draftCamera{Topic: t, Type: tImage})
		}
	}
	for _, t := range compressed {
		if strings.Contains(strings.ToLower(t), "depth") {
			skipped = append(skipped, t)
			continue
		}
		all = append(all, draftCamera{Topic: t, Type: tCompressed})
	}
	slices.SortFunc(all, func(a, b draftCamera) int { return strings.Compare(a.Topic, b.Topic) })
	d.note(skipped, "depth image topics are not drafted as cameras")
	if len(all) > maxCameras {
		var rest []string
		for _, c := range all[maxCameras:] {
			rest = append(rest, c.Topic)
		}
		d.note(rest, fmt.Sprintf("more image topics than the %d cameras drafted (every camera costs tokens each turn)", maxCameras))
		all = all[:maxCameras]
	}
	names := newNamer()
	for _, c := range all {
		c.Name = names.name(cameraBase(c.Topic))
		d.Cameras = append(d.Cameras, c)
	}
}

// cameraBase is a camera's name from its topic: the path without the
// image_transport suffixes.
func cameraBase(topic string) string {
	t := topic
	for _, suffix := range []string{"/compressed", "/image_raw", "/image_rect_color", "/image_rect", "/image_color", "/image"} {
		t = strings.TrimSuffix(t, suffix)
	}
	if t == "" {
		t = topic
	}
	return t
}

// clearance: the LaserScan (/scan first).
func (d *draft) clearance(byType map[string][]string) {
	scans := prefer(byType[tLaserScan], "/scan")
	if len(scans) > 0 {
		d.Clearance = scans[0]
		d.note(scans[1:], "more LaserScan topics; clearance reads "+scans[0])
	}
}

// stopTopics: the Twist cmd_vel today's stop publishes zero on, and an
// e-stop Bool as a pending stop publish.
func (d *draft) stopTopics(byType map[string][]string) {
	var cmdVel []string
	for _, t := range byType[tTwist] {
		if strings.HasSuffix(t, "cmd_vel") {
			cmdVel = append(cmdVel, t)
		}
	}
	if cmdVel = prefer(cmdVel, "/cmd_vel"); len(cmdVel) > 0 {
		d.CmdVel = cmdVel[0]
	}
	for _, t := range byType[tBool] {
		if hasWord(t, estopWords) {
			d.Pending = append(d.Pending, pendingBlock{
				Review: []string{fmt.Sprintf("%s looks like an e-stop input: if publishing true engages it (check: on some relays true releases it), it can be the stop path instead of a service:", safeText(t))},
				Lines:  []string{fmt.Sprintf("stop: publish: {topic: %q, type: %q, message: \"{data: true}\"}", t, tBool)},
			})
		}
	}
}
