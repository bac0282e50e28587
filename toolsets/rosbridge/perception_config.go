package rosbridge

// Perception is what an observation reads beside cameras, the pose and
// state (config.cue's #Observation): TF, detections, what is held, the
// joints, the end effector's and other frames' poses.
type Perception struct {
	// TF is the TF topics; nil when no lookup is declared.
	TF          *TFDecl                   `json:"tf,omitempty"`
	Detections  map[string]DetectionsDecl `json:"detections,omitempty"`
	Held        *StateDecl                `json:"held,omitempty"`
	Joints      *TopicDecl                `json:"joints,omitempty"`
	EndEffector *PoseDecl                 `json:"end_effector,omitempty"`
	Frames      map[string]PoseDecl       `json:"frames,omitempty"`
}

// TFDecl names the TF topics (tf2_msgs/msg/TFMessage).
type TFDecl struct {
	Topic       string `json:"topic"`
	StaticTopic string `json:"static_topic"`
}

// PoseDecl is a pose read from a topic (Odometry, PoseStamped) or looked
// up in TF: exactly one of Topic and TF.
type PoseDecl struct {
	TopicDecl
	TF *LookupDecl `json:"tf,omitempty"`
}

// LookupDecl is a TF lookup: Child's pose in Parent.
type LookupDecl struct {
	Parent string `json:"parent"`
	Child  string `json:"child"`
}

// DetectionsDecl is one detector's topic: a vision_msgs Detection2DArray
// or Detection3DArray, or any type with Value (an expr over msg giving a
// list of detections).
type DetectionsDecl struct {
	Topic    string  `json:"topic"`
	Type     string  `json:"type"`
	Value    string  `json:"value,omitempty"`
	Camera   string  `json:"camera,omitempty"`
	Frame    string  `json:"frame,omitempty"`
	MinScore float64 `json:"min_score"`
	SubscribeDecl
	Freshness
}

// Message types perception reads.
const (
	typeDetection2DArray = "vision_msgs/msg/Detection2DArray"
	typeDetection3DArray = "vision_msgs/msg/Detection3DArray"
	typeJointState       = "sensor_msgs/msg/JointState"
	typePoseStamped      = "geometry_msgs/msg/PoseStamped"
)
