package rosbridge

import (
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"time"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
)

// configCUE is the rosbridge block's definitions (toolsets.<name>.rosbridge):
// with section.cue, the kind's CUE. Its definitions are the kind's own
// (#Tool is #Toolset_rosbridge_Tool in the schema the build generates).
//
//go:embed config.cue
var configCUE string

// Config is a rosbridge toolset's own section (toolsets.<name>.rosbridge),
// decoded once against config.cue with its defaults filled in.
type Config struct {
	TokenEnv  string    `json:"token_env,omitempty"`
	Reconnect Reconnect `json:"reconnect"`
	// CancelTimeout bounds the stop path's cancel.
	CancelTimeout string              `json:"cancel_timeout"`
	CmdVel        string              `json:"cmd_vel,omitempty"`
	Tools         map[string]ToolDecl `json:"tools"`
	// Observation and Clearance are nil when not declared.
	Observation *ObservationDecl `json:"observation,omitempty"`
	Clearance   *ClearanceDecl   `json:"clearance,omitempty"`
	// Readings is the safety readings tool; nil when not declared.
	Readings *ReadingsDecl `json:"readings,omitempty"`
	// StoppedReading names the reading of Readings that is true while the
	// robot is still: after a kill it ends a motion whose end was never
	// reported (goalend.go); "" when not declared.
	StoppedReading string `json:"stopped_reading,omitempty"`

	// Stop is the declared stop path (stopconfig.go); nil when not
	// declared.
	Stop *StopDecl `json:"stop,omitempty"`
}

// Reconnect paces reconnection after a dropped socket.
type Reconnect struct {
	Initial string `json:"initial"`
	Max     string `json:"max"`
}

// ToolDecl is one declared tool: exactly one of Action, Service, Publish.
type ToolDecl struct {
	Description string             `json:"description"`
	Args        map[string]ArgDecl `json:"args,omitempty"`
	Physical    *bool              `json:"physical,omitempty"`
	Action      *ActionDecl        `json:"action,omitempty"`
	Service     *ServiceDecl       `json:"service,omitempty"`
	Publish     *PublishDecl       `json:"publish,omitempty"`
}

// IsPhysical: actions and publishes move the robot unless declared not to.
func (t ToolDecl) IsPhysical() bool {
	if t.Physical != nil {
		return *t.Physical
	}
	return t.Action != nil || t.Publish != nil
}

// ArgDecl is one argument of a tool, as the model's input schema offers it.
type ArgDecl struct {
	Type        string   `json:"type"`
	Description string   `json:"description,omitempty"`
	Minimum     *float64 `json:"minimum,omitempty"`
	Maximum     *float64 `json:"maximum,omitempty"`
	Enum        []any    `json:"enum,omitempty"`
	Optional    bool     `json:"optional"`
	// Items (an array's) and Properties (an object's) type what is inside
	// a structured argument (args.go); MaxItems bounds an array.
	Items      *ArgDecl           `json:"items,omitempty"`
	Properties map[string]ArgDecl `json:"properties,omitempty"`
	MinItems   *int               `json:"min_items,omitempty"`
	MaxItems   *int               `json:"max_items,omitempty"`
}

// ActionDecl sends a goal to a ROS 2 action server.
type ActionDecl struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Goal     string `json:"goal"`
	Feedback bool   `json:"feedback"`
	// Success and Reason judge a succeeded goal by its result and status,
	// as a service's judge its response (judge.go).
	Success string `json:"success,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// ServiceDecl calls a ROS 2 service.
type ServiceDecl struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Request string `json:"request"`
	Success string `json:"success,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// PublishDecl is a bounded command: Message at RateHz for Duration seconds,
// then Zero once.
type PublishDecl struct {
	Topic       string  `json:"topic"`
	Type        string  `json:"type"`
	Message     string  `json:"message"`
	RateHz      float64 `json:"rate_hz"`
	Duration    string  `json:"duration"`
	MaxDuration string  `json:"max_duration"`
	Zero        string  `json:"zero,omitempty"`
}

// SubscribeDecl is how rosbridge sends a topic (config.cue's #Subscribe).
type SubscribeDecl struct {
	ThrottleRate string `json:"throttle_rate,omitempty"`
	QueueLength  int    `json:"queue_length,omitempty"`
	FragmentSize int    `json:"fragment_size,omitempty"`
	Compression  string `json:"compression,omitempty"`
}

// TopicDecl is a topic and its type ("" for the default of its use).
type TopicDecl struct {
	Topic string `json:"topic"`
	Type  string `json:"type,omitempty"`
	SubscribeDecl
	Freshness
}

// Freshness is how new an observation source's message must be: evidence
// (the default) is newer than the last motion; any source is at most
// MaxAge old ("" for the observation's max_age) when the observation ends.
type Freshness struct {
	MaxAge   string `json:"max_age,omitempty"`
	Evidence bool   `json:"evidence"`
}

// StateDecl is one field of observation.state: Value is an expr over msg.
type StateDecl struct {
	Topic string `json:"topic"`
	Type  string `json:"type,omitempty"`
	Value string `json:"value"`
	SubscribeDecl
	Freshness
}

// ObservationDecl is the observation assembled from topics.
type ObservationDecl struct {
	Tool    string               `json:"tool"`
	MaxAge  string               `json:"max_age"`
	Cameras map[string]TopicDecl `json:"cameras,omitempty"`
	Pose    *PoseDecl            `json:"pose,omitempty"`
	State   map[string]StateDecl `json:"state,omitempty"`
	Perception
}

// ClearanceDecl is the clearance reading from a LaserScan.
type ClearanceDecl struct {
	Tool    string                `json:"tool"`
	Topic   string                `json:"topic"`
	MaxAge  string                `json:"max_age"`
	Sectors map[string]SectorDecl `json:"sectors,omitempty"`
	SubscribeDecl
}

// ReadingsDecl is the safety readings tool: named readings from topics,
// each read fresh within its own max_age.
type ReadingsDecl struct {
	Tool    string                 `json:"tool"`
	Sources map[string]ReadingDecl `json:"sources"`
}

// ReadingDecl is one reading: Value is an expr over msg (default: the
// type's own value, msg.data or a Range's msg.range).
type ReadingDecl struct {
	Topic  string `json:"topic"`
	Type   string `json:"type"`
	Value  string `json:"value,omitempty"`
	MaxAge string `json:"max_age"`
	SubscribeDecl
}

// SectorDecl is a sector's angles, degrees counter-clockwise from the front.
type SectorDecl struct {
	FromDeg float64 `json:"from_deg"`
	ToDeg   float64 `json:"to_deg"`
}

// Default message types.
const (
	typeCompressedImage = "sensor_msgs/msg/CompressedImage"
	typeOdometry        = "nav_msgs/msg/Odometry"
	typeLaserScan       = "sensor_msgs/msg/LaserScan"
	typeTwist           = "geometry_msgs/msg/Twist"
)

// FieldError is a problem at a path inside the rosbridge section
// ("tools.drive.publish.rate_hz").
type FieldError struct {
	Path string
	Msg  string
}

func (e FieldError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// DecodeConfig checks a rosbridge block given as a map (a Go test's, a
// drafted spec's) against config.cue and decodes
// it with its defaults. Every problem is a FieldError (errors.Join).
func DecodeConfig(section map[string]any) (Config, error) {
	var cfg Config
	ctx := cuecontext.New()
	// config.cue reads the spec schema's #NonEmpty; alone, it gets its own.
	src := "import \"strings\"\n\n#NonEmpty: string & strings.MinRunes(1)\n\n" + configCUE
	def := ctx.CompileString(src, cue.Filename("toolsets/rosbridge/config.cue")).LookupPath(cue.ParsePath("#Rosbridge"))
	if err := def.Err(); err != nil {
		return cfg, fmt.Errorf("rosbridge config schema: %w", err)
	}
	if section == nil {
		section = map[string]any{}
	}
	v := def.Unify(ctx.Encode(section))
	if err := v.Validate(cue.Concrete(true), cue.All()); err != nil {
		return cfg, fieldErrors(err)
	}
	if err := v.Decode(&cfg); err != nil {
		return cfg, fmt.Errorf("decoding the rosbridge section: %w", err)
	}
	return cfg, nil
}

// fieldErrors turns CUE's errors into FieldErrors at their paths, one per
// path (a disjunction's alternatives say the same thing several times).
func fieldErrors(err error) error {
	seen := map[string]bool{}
	var out []error
	for _, e := range cueerrors.Errors(err) {
		path := strings.TrimPrefix(strings.TrimPrefix(strings.Join(e.Path(), "."), "#Rosbridge"), ".")
		if seen[path] {
			continue
		}
		seen[path] = true
		format, args := e.Msg()
		msg := fmt.Sprintf(format, args...)
		if strings.Contains(msg, "field not allowed") {
			msg = "unknown field"
		}
		out = append(out, FieldError{Path: path, Msg: msg})
	}
	return errors.Join(out...)
}

// duration parses a duration the schema already checked.
func duration(s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0
	}
	return d
}
