package world

// The Observation and Verdict shapes are part of the spec language: any
// back-end whose observation tool returns this JSON (as the text content of its
// result, images as MCP image content) plugs into Thea. Field names are the
// same in JSON and in expr rules.

// Observation is one snapshot of the body's sensors. Every field is
// optional; a body reports what it has (a base: pose and clearance, an arm:
// joints, end_effector and gripper). A field it leaves out is unknown, not
// its zero value (see Known).
type Observation struct {
	// RunID names the tool run this observation is evidence for, if any.
	RunID     string    `json:"run_id,omitempty" expr:"run_id"`
	Clearance Clearance `json:"clearance,omitempty" expr:"clearance"`
	// AgeS is how old each source's reading was when the observation
	// completed, in seconds ("pose", "cameras.front", "state.battery").
	AgeS       map[string]float64 `json:"age_s,omitempty" expr:"age_s"`
	Detections []Detection        `json:"detections,omitempty" expr:"detections"`
	Held       string             `json:"held,omitempty" expr:"held"`
	Pose       *Pose              `json:"pose,omitempty" expr:"pose"`
	Images     []Image            `json:"images,omitempty" expr:"images"`
	State      map[string]any     `json:"state,omitempty" expr:"state"`
	Summary    string             `json:"summary,omitempty" expr:"summary"`
	// Joints are an arm's joint positions by joint name (radians for
	// revolute joints, metres for prismatic ones).
	Joints map[string]float64 `json:"joints,omitempty" expr:"joints"`
	// EndEffector is the pose of an arm's tool frame.
	EndEffector *EndEffectorPose `json:"end_effector,omitempty" expr:"end_effector"`
	// Gripper is the state of an arm's gripper.
	Gripper *Gripper `json:"gripper,omitempty" expr:"gripper"`
	// JointStates are each joint's position, velocity and effort, as a
	// sensor_msgs/msg/JointState gives them (velocity and effort only
	// when measured).
	JointStates map[string]JointState `json:"joint_states,omitempty" expr:"joint_states"`
	// Frames are named frames' poses (a TF lookup), each in its Frame.
	Frames map[string]EndEffectorPose `json:"frames,omitempty" expr:"frames"`
	// sent marks the fields the back-end sent, zero ones included (see
	// Known): a field it did not send is unknown, never a default.
	sent uint16
	// sentIn marks the fields of the nested objects sent (see KnownIn).
	sentIn uint32
}

// JointState is one joint's reading: radians (rad/s, N·m) for a revolute
// joint, metres (m/s, N) for a prismatic one. A nil velocity or effort is
// not measured.
type JointState struct {
	Position float64  `json:"position" expr:"position"`
	Velocity *float64 `json:"velocity,omitempty" expr:"velocity"`
	Effort   *float64 `json:"effort,omitempty" expr:"effort"`
}

// Clearance is the distance in metres to the nearest obstacle in each
// clearance sector the embodiment declares (embodiment.clearance_sectors;
// front, back, left and right when none are declared).
type Clearance map[string]float64

// Toward returns the clearance in a sector named directly (not by alias);
// an unknown sector reads as 0, the safe side. Rules resolve aliases through
// the embodiment's sectors (ClearanceEnv.toward).
func (c Clearance) Toward(sector string) float64 { return c[sector] }

// EndEffectorPose is the position (metres) and orientation (degrees, roll,
// pitch, yaw) of an arm's tool frame in Frame.
type EndEffectorPose struct {
	Frame    string  `json:"frame,omitempty" expr:"frame"`
	X        float64 `json:"x" expr:"x"`
	Y        float64 `json:"y" expr:"y"`
	Z        float64 `json:"z" expr:"z"`
	RollDeg  float64 `json:"roll_deg,omitempty" expr:"roll_deg"`
	PitchDeg float64 `json:"pitch_deg,omitempty" expr:"pitch_deg"`
	YawDeg   float64 `json:"yaw_deg,omitempty" expr:"yaw_deg"`
}

// Gripper is a gripper's state: its opening and whether it holds something.
type Gripper struct {
	// OpeningM is the distance between the fingers in metres.
	OpeningM float64 `json:"opening_m" expr:"opening_m"`
	Closed   bool    `json:"closed" expr:"closed"`
	// ForceN is the grip force in newtons, when the gripper measures it.
	ForceN float64 `json:"force_n,omitempty" expr:"force_n"`
}

// Detection is one object seen by a camera, with its relation to a support.
// The Scene Graph matches it to an earlier sighting by ID when the back-end
// gives one, else by position, else by support (relation and target), else
// by name, class and room.
type Detection struct {
	Name      string  `json:"name" expr:"name"`
	Class     string  `json:"class,omitempty" expr:"class"`
	Camera    string  `json:"camera,omitempty" expr:"camera"`
	Relation  string  `json:"relation,omitempty" expr:"relation"` // on | in | near
	Target    string  `json:"target,omitempty" expr:"target"`
	Room      string  `json:"room,omitempty" expr:"room"`
	DistanceM float64 `json:"distance_m,omitempty" expr:"distance_m"`
	Visible   bool    `json:"visible" expr:"visible"`
	// Position is where the object is, in the scene graph's frame (default
	// map), when the back-end knows; the Scene Graph tells two objects of one
	// name apart by it.
	Position *Point `json:"position,omitempty" expr:"position"`
	// ID is the back-end's own stable identity of the object (a tracker's
	// track id), when it has one: the Scene Graph keeps one ref per id.
	ID string `json:"id,omitempty" expr:"id"`
	// Frame is the frame Position is in when it is not the scene graph's
	// (a detector's camera frame no transform reached).
	Frame string `json:"frame,omitempty" expr:"frame"`
	// Score is the detector's confidence, 0 to 1, when it gives one.
	Score float64 `json:"score,omitempty" expr:"score"`
}

// Point is a position in a frame, in metres.
type Point struct {
	X float64 `json:"x" expr:"x"`
	Y float64 `json:"y" expr:"y"`
}

// Pose is the base pose in the map frame, or in Frame when set.
type Pose struct {
	X        float64 `json:"x" expr:"x"`
	Y        float64 `json:"y" expr:"y"`
	ThetaDeg float64 `json:"theta_deg" expr:"theta_deg"`
	Room     string  `json:"room,omitempty" expr:"room"`
	// Frame is the frame the pose is in ("odom"), when the back-end
	// knows it; not set: the map frame.
	Frame string `json:"frame,omitempty" expr:"frame"`
}

// Image is one camera frame. Data is not part of the JSON an observation tool
// returns (images travel as MCP image content); the harness fills it.
type Image struct {
	Camera string `json:"camera" expr:"camera"`
	MIME   string `json:"mime" expr:"mime"`
	Width  int    `json:"width,omitempty" expr:"width"`
	Height int    `json:"height,omitempty" expr:"height"`
	Data   []byte `json:"-" expr:"-"`
}

// VerdictStatus is a verdict's judgement of a call's outcome.
type VerdictStatus string

// The verdicts an evaluator may give.
const (
	// VerdictSuccess: the post-condition holds.
	VerdictSuccess VerdictStatus = "success"
	// VerdictFailure: it does not, or nothing could confirm it.
	VerdictFailure VerdictStatus = "failure"
	// VerdictProcess: the action is under way (a long, segmented motion).
	VerdictProcess VerdictStatus = "process"
)

// Valid reports whether s is one of the three verdicts.
func (s VerdictStatus) Valid() bool {
	return s == VerdictSuccess || s == VerdictFailure || s == VerdictProcess
}

// Verdict is the evaluator's judgement of one evaluated run.
type Verdict struct {
	Status     VerdictStatus `json:"status"`
	Reason     string        `json:"reason,omitempty"`
	Evidence   string        `json:"evidence,omitempty"`
	Confidence float64       `json:"confidence,omitempty"`
	// Source says who decided: "check" (the contract's expr), "verifier"
	// (the contract's verify tool), "model", or "tool" (the call failed).
	Source string `json:"source,omitempty"`
}
