package report

import (
	"encoding/base64"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/thea-harness/thea/world"
)

// The messages of the MCAP export, shaped as Foxglove's JSON Schemas say
// (report/foxglove/*.json): field names as there, times as {sec, nsec},
// bytes as base64.

type fgTime struct {
	Sec  int64 `json:"sec"`
	Nsec int64 `json:"nsec"`
}

func stamp(t time.Time) fgTime { return fgTime{Sec: t.Unix(), Nsec: int64(t.Nanosecond())} }

type fgVec3 struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	Z float64 `json:"z"`
}

type fgQuat struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	Z float64 `json:"z"`
	W float64 `json:"w"`
}

type fgPose struct {
	Position    fgVec3 `json:"position"`
	Orientation fgQuat `json:"orientation"`
}

type fgColor struct {
	R float64 `json:"r"`
	G float64 `json:"g"`
	B float64 `json:"b"`
	A float64 `json:"a"`
}

// Log levels of foxglove.Log.
const (
	logInfo    = 2
	logWarning = 3
	logError   = 4
)

type fgLog struct {
	Timestamp fgTime `json:"timestamp"`
	Level     int    `json:"level"`
	Message   string `json:"message"`
	Name      string `json:"name"`
	File      string `json:"file"`
	Line      int    `json:"line"`
}

// logMessage is one trace row: "turn N · label: text", its level from the
// row's status, named by its kind; file and line are the event's in the run
// log (line 0: not one event's).
func logMessage(t time.Time, turn, line int, row Row) fgLog {
	level := logInfo
	switch row.Status {
	case "warn":
		level = logWarning
	case "fail":
		level = logError
	}
	msg := row.Label
	if row.Text != "" {
		msg += ": " + row.Text
	}
	if turn > 0 {
		msg = fmt.Sprintf("turn %d · %s", turn, msg)
	}
	return fgLog{Timestamp: stamp(t), Level: level, Message: msg, Name: "thea/" + row.Kind, File: "events.jsonl", Line: line}
}

type fgCompressedImage struct {
	Timestamp fgTime `json:"timestamp"`
	FrameID   string `json:"frame_id"`
	Data      string `json:"data"`
	Format    string `json:"format"`
}

// imageMessage is one saved image; its frame is its camera's name.
func imageMessage(t time.Time, im Image) fgCompressedImage {
	return fgCompressedImage{Timestamp: stamp(t), FrameID: im.Camera, Data: base64.StdEncoding.EncodeToString(im.data),
		Format: strings.TrimPrefix(im.MIME, "image/")}
}

type fgFrameTransform struct {
	Timestamp     fgTime `json:"timestamp"`
	ParentFrameID string `json:"parent_frame_id"`
	ChildFrameID  string `json:"child_frame_id"`
	Translation   fgVec3 `json:"translation"`
	Rotation      fgQuat `json:"rotation"`
}

// poseMessage is the base's pose: in the map frame, or in the frame the
// back-end named.
func poseMessage(t time.Time, p world.Pose) fgFrameTransform {
	parent := FrameMap
	if p.Frame != "" {
		parent = p.Frame
	}
	return fgFrameTransform{Timestamp: stamp(t), ParentFrameID: parent, ChildFrameID: FrameBase,
		Translation: fgVec3{X: p.X, Y: p.Y}, Rotation: yaw(p.ThetaDeg * math.Pi / 180)}
}

func yaw(rad float64) fgQuat { return fgQuat{Z: math.Sin(rad / 2), W: math.Cos(rad / 2)} }
