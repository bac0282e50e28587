package rosbridgetest

import (
	"io"
	"time"
)

// Options configure a fake server.
type Options struct {
	// Token, when set, is required as "Authorization: Bearer <Token>" on
	// the handshake; without it the handshake gets HTTP 401.
	Token string
	// FragmentSize, when positive, sends every message longer than this
	// many bytes as fragments (a subscriber's own fragment_size also
	// applies to its topics).
	FragmentSize int
	// Faults switch misbehaviour on.
	Faults Faults
	// Tick is the simulation step (default 20ms). Odometry is published
	// every 2 ticks, scan and camera every 10, battery every 50.
	Tick time.Duration
	// NavSpeed is how fast a navigation goal drives, m/s (default 1).
	NavSpeed float64
	// CmdVelTimeout stops the base when no cmd_vel came for this long;
	// 0 (the default) holds the last command forever, the worst case a
	// client must cope with.
	CmdVelTimeout time.Duration
	// Robot is the robot behind the server: RobotTurtleBot (the
	// default) or RobotArm.
	Robot string
	// ArmMotion is how long one of the arm's skills (pick, place) moves
	// (default 1s; a gripper command half that).
	ArmMotion time.Duration
	// FaultDir, when set, also serves the body layer's fault suite
	// contract, recording into this directory (see faultcontract.go).
	FaultDir string
	// Typedefs, when set, answers rosapi's *_details services in place of
	// the fake's own definitions (a broken or hostile rosapi); it is given
	// the type asked for, as sent.
	Typedefs func(typ string) []TypeDef
	// Graph adds to the fake's graph, or takes rosapi's services away (a
	// hostile or unusual graph; see hostile.go).
	Graph GraphExtras
	// Log receives what rosbridge would log: errors it never sends to a
	// client (a publish that does not fit its type, a bad subscribe).
	Log io.Writer
	// Extra topics published beside the robot's (extra.go).
	Extra []Extra
	// Noise is the standard deviation, in metres, of the Gaussian noise
	// added to the TurtleBot's odometry position and laser ranges (0: none).
	Noise float64
	// Seed seeds the noise (noise.go).
	Seed uint64
}

// TypeDef is rosapi_msgs/msg/TypeDef as rosapi sends it.
type TypeDef struct {
	Type          string   `json:"type"`
	FieldNames    []string `json:"fieldnames"`
	FieldTypes    []string `json:"fieldtypes"`
	FieldArrayLen []int    `json:"fieldarraylen"`
}

// Faults are the misbehaviour switches.
type Faults struct {
	// DropMidGoal closes the socket that sent a goal right after the
	// goal's first feedback; the goal keeps driving.
	DropMidGoal bool
	// IgnoreCancel ignores cancel_action_goal (and the cancel_goal
	// service): the goal drives on to its end.
	IgnoreCancel bool
	// NoResult never sends an action_result; goals still end on the robot.
	NoResult bool
	// Garbage sends a burst of garbage frames (GarbageFrames of them) when
	// a socket opens and after every service response.
	Garbage bool
	// KeepMovingAfterCancel answers a cancel with a canceled result but
	// drives on to the goal.
	KeepMovingAfterCancel bool
	// BareNonFinite writes inf and NaN in float arrays as bare Infinity and
	// NaN tokens (invalid JSON), as rosbridge does today for arrays
	// (rosbridge_suite issue 916); scalars stay null.
	BareNonFinite bool
	// HugeImageHeader publishes a camera frame whose PNG header claims
	// 60000×60000 pixels (a few bytes that would decode to gigabytes).
	HugeImageHeader bool
	// EchoToken is a proxy in front of rosbridge that echoes the bearer
	// token (Options.Token) back: in the dock service's message (which
	// fails) and in the odometry's frame ids.
	EchoToken bool
	// EchoTokenRosapi is a proxy that echoes the bearer token in rosapi's
	// answers: a topic and a service named after it, a topic type holding
	// it, and the error a service's definition fails with (echotoken.go).
	EchoTokenRosapi bool
	// EchoTokenTopics fails /rosapi/topics with an error that quotes the
	// Authorization header, plain and in base64.
	EchoTokenTopics bool
	// HangArm makes every arm goal move for ever, ignoring its cancel
	// and preemption: only the dashboard stop (ServiceDashboardStop)
	// ends it.
	HangArm bool
	// SkillFails makes the skill action (ActionSkill) answer SUCCEEDED
	// with success: false in its result.
	SkillFails bool
	// NoActionDetails leaves rosapi/action_goal_details out of the graph
	// (a rosapi older than action support); read at Start.
	NoActionDetails bool
}

// State is what the fake robot and server did, for tests to assert on. It
// is also served as JSON by the /rosbridgetest/state service, for a fake
// running in another process.
type State struct {
	X, Y, Yaw       float64
	Linear, Angular float64 // the base's velocity now
	Moving          bool
	Docked          bool
	Battery         float64 // percentage, 0–1

	Connections int // sockets open now
	Accepted    int // sockets ever accepted
	Refused     int // handshakes refused (token)

	Goals          []GoalState // goals driving now
	GoalsReceived  int
	GoalsSucceeded int
	GoalsCanceled  int
	GoalsAborted   int
	CancelsIgnored int
	ResultsLost    int // results whose socket was gone
	FragmentsSent  int // fragment frames written (FragmentSize, fragment_size)

	CmdVel        int        // cmd_vel messages received
	LastCmdVel    [2]float64 // linear.x, angular.z of the last one
	MaxMotions    int        // most motions at once (driving goals + a non-zero cmd_vel)
	Subscriptions []SubscriptionState
	ServiceCalls  map[string]int // by service name as sent
	Errors        []string       // the last errors rosbridge would have logged

	CurtainClear   bool           // the light curtain is unbroken
	PersonDistance float64        // metres; NaN: no person detected
	Held           []string       // topics held silent
	Published      map[string]int // messages sent, by topic
	// Arm is the arm's state (Options.Robot RobotArm), nil for the
	// TurtleBot. MaxMotions counts the arm's goals moving at once.
	Arm *ArmState `json:",omitempty"`
}

// ArmState is the arm's state.
type ArmState struct {
	Joints         [6]float64 // radians, in armJoints' order
	Gripper        float64    // the finger opening, m
	Mug            string     // where the mug is: table, gripper or bin
	CurtainBroken  bool
	PersonDistance float64
	Moving         bool
	Goals          []GoalState // goals moving now
	// DashboardStops counts calls of the dashboard stop.
	DashboardStops int
	// GoalsWhileCurtainBroken counts goals received while the light
	// curtain was broken.
	GoalsWhileCurtainBroken int
}

// GoalState is a goal driving now.
type GoalState struct {
	ID       string
	Action   string
	TargetX  float64
	TargetY  float64
	Canceled bool // a cancel was answered but the goal drives on (KeepMovingAfterCancel)
	Orphaned bool // the socket that sent it is gone
}

// SubscriptionState is a subscribe as received.
type SubscriptionState struct {
	Topic        string
	Type         string
	ThrottleRate int
	QueueLength  int
	Compression  string
	FragmentSize int
}

// GarbageFrames is how many frames one garbage burst sends (one of them
// binary).
const GarbageFrames = 9

func (o Options) withDefaults() Options {
	if o.Tick <= 0 {
		o.Tick = 20 * time.Millisecond
	}
	if o.ArmMotion <= 0 {
		o.ArmMotion = time.Second
	}
	if o.NavSpeed <= 0 {
		o.NavSpeed = 1
	}
	return o
}
