package schema

// The Observation and Verdict shapes are part of the spec language: any
// back-end whose observation tool returns this JSON (as the text content of its
// result, images as MCP image content) plugs into Thea. Field names are the
// same in JSON and in expr rules.

// Observation is one snapshot of the body's sensors.
type Observation struct {
	// RunID names the tool run this observation is evidence for, if any.
	RunID      string         `json:"run_id,omitempty" expr:"run_id"`
	Clearance  *Clearance     `json:"clearance,omitempty" expr:"clearance"`
	Detections []Detection    `json:"detections,omitempty" expr:"detections"`
	Held       string         `json:"held,omitempty" expr:"held"`
	Pose       *Pose          `json:"pose,omitempty" expr:"pose"`
	Images     []Image        `json:"images,omitempty" expr:"images"`
	State      map[string]any `json:"state,omitempty" expr:"state"`
	Summary    string         `json:"summary,omitempty" expr:"summary"`
}

// Clearance is the distance in metres to the nearest obstacle in each of the
// four base directions.
type Clearance struct {
	Front float64 `json:"front" expr:"front"`
	Back  float64 `json:"back" expr:"back"`
	Left  float64 `json:"left" expr:"left"`
	Right float64 `json:"right" expr:"right"`
}

// Toward returns the clearance in a direction ("front", "forward", "back",
// "backward", "left", "right"); an unknown direction reads as 0, the safe side.
func (c Clearance) Toward(direction string) float64 {
	switch direction {
	case "front", "forward":
		return c.Front
	case "back", "backward":
		return c.Back
	case "left":
		return c.Left
	case "right":
		return c.Right
	}
	return 0
}

// Detection is one object seen by a camera, with its relation to a support.
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
}

// Point is a position in a frame, in metres.
type Point struct {
	X float64 `json:"x" expr:"x"`
	Y float64 `json:"y" expr:"y"`
}

// Pose is the base pose in the map frame.
type Pose struct {
	X        float64 `json:"x" expr:"x"`
	Y        float64 `json:"y" expr:"y"`
	ThetaDeg float64 `json:"theta_deg" expr:"theta_deg"`
	Room     string  `json:"room,omitempty" expr:"room"`
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
	// Source says who decided: "check" (the contract's expr) or "model".
	Source string `json:"source,omitempty"`
}
