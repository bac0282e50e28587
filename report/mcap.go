package report

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"time"

	"github.com/foxglove/mcap/go/mcap"

	"github.com/thea-harness/thea/runlog"
)

// The run as an MCAP file, for Foxglove: the camera frames, the trace, the
// Scene Graph and the robot's pose on Foxglove's well-known schemas (JSON
// encoded, the schemas embedded from @foxglove/schemas 2.1.0), and every
// run-log event on a JSON channel of its kind. Everything comes from the run
// directory as the report reads it (already redacted); nothing else is read.

//go:embed foxglove/*.json
var foxgloveSchemas embed.FS

// Topics of the MCAP export; docs/episodes-and-eval.md lists them.
const (
	TopicLog        = "/thea/log"
	TopicScene      = "/thea/scene"
	TopicTF         = "/tf"
	TopicCameraPfx  = "/camera/"
	TopicEventsPfx  = "/thea/events/"
	TopicToolImages = "/thea/tool_result/image"
)

// Frames of the export: the map frame of the Scene Graph and poses, and the
// robot's base.
const (
	FrameMap  = "map"
	FrameBase = "base"
)

// mcapChunkSize keeps a chunk to a few camera frames, so a viewer seeking
// into a long run reads little.
const mcapChunkSize = 4 << 20

// WriteMCAP loads the run directory and writes it to w as an MCAP file.
func WriteMCAP(ctx context.Context, w io.Writer, runDir string) error {
	r, err := Load(ctx, runDir)
	if err != nil {
		return err
	}
	return EncodeMCAP(w, r)
}

// EncodeMCAP writes a loaded run as an MCAP file: chunked, with message
// indexes, a summary section and CRCs. Chunks are not compressed: camera
// frames, most of the bytes, are PNG or JPEG already, and an uncompressed
// chunk needs no decompressor in the reader.
func EncodeMCAP(w io.Writer, r *Run) error {
	mw, err := mcap.NewWriter(w, &mcap.WriterOptions{
		IncludeCRC:  true,
		Chunked:     true,
		ChunkSize:   mcapChunkSize,
		Compression: mcap.CompressionNone,
	})
	if err != nil {
		return fmt.Errorf("mcap writer: %w", err)
	}
	e := &mcapEncoder{w: mw, schemas: map[string]uint16{}, channels: map[string]uint16{}, seq: map[uint16]uint32{}}
	if err := mw.WriteHeader(&mcap.Header{Profile: "", Library: "thea report"}); err != nil {
		return fmt.Errorf("mcap header: %w", err)
	}
	if err := e.run(r); err != nil {
		return err
	}
	if err := mw.Close(); err != nil {
		return fmt.Errorf("mcap summary: %w", err)
	}
	return nil
}

// mcapEncoder writes schemas and channels as they are first used.
type mcapEncoder struct {
	w        *mcap.Writer
	schemas  map[string]uint16 // by schema name
	channels map[string]uint16 // by topic
	seq      map[uint16]uint32 // per channel
}

func (e *mcapEncoder) run(r *Run) error {
	world := newWorld()
	var last time.Time
	for _, ev := range r.Events {
		// An MCAP time is nanoseconds since 1970 in 64 bits.
		if ev.Time.IsZero() || ev.Time.Before(time.Unix(0, 0)) || ev.Time.After(time.Unix(0, math.MaxInt64)) {
			return fmt.Errorf("%s:%d: %s event of turn %d: no time, or one outside 1970–2262: an MCAP message needs its time",
				filepath.Join(r.Dir, runlog.EventsFile), ev.Line, ev.Kind, ev.Turn)
		}
		t := ev.Time
		last = t
		raw, err := json.Marshal(ev.Event)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", filepath.Join(r.Dir, runlog.EventsFile), ev.Line, err)
		}
		if err := e.message(TopicEventsPfx+string(ev.Kind), "", t, raw); err != nil {
			return err
		}
		if row, ok := rowFor(ev.Event); ok {
			if err := e.foxglove(TopicLog, "foxglove.Log", t, logMessage(t, ev.Turn, ev.Line, row)); err != nil {
				return err
			}
		}
		for _, im := range ev.Images {
			topic := TopicToolImages
			if im.Camera != "" {
				topic = TopicCameraPfx + im.Camera
			}
			if err := e.foxglove(topic, "foxglove.CompressedImage", t, imageMessage(t, im)); err != nil {
				return err
			}
		}
		if o := ev.Observation; o != nil {
			if p := o.Pose; p != nil && finite(p.X, p.Y, p.ThetaDeg) {
				if err := e.foxglove(TopicTF, "foxglove.FrameTransform", t, poseMessage(t, *p)); err != nil {
					return err
				}
			}
			world.observe(o, ev.Turn)
			if len(world.objects)+len(world.places) > 0 {
				if err := e.foxglove(TopicScene, "foxglove.SceneUpdate", t, sceneMessage(t, world)); err != nil {
					return err
				}
			}
		}
	}
	// What the report could not read (a missing image) is said in the trace.
	for _, p := range r.Problems {
		if err := e.foxglove(TopicLog, "foxglove.Log", last, logMessage(last, 0, 0, Row{Kind: "problem", Label: "not exported", Text: p, Status: "warn"})); err != nil {
			return err
		}
	}
	return nil
}

// foxglove writes one message of a Foxglove schema, JSON encoded.
func (e *mcapEncoder) foxglove(topic, schema string, t time.Time, msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("%s message: %w", topic, err)
	}
	return e.message(topic, schema, t, b)
}

// message writes data on topic, its channel (and schema: "" is schema-less
// JSON) written first when new. Log and publish time are the event's.
func (e *mcapEncoder) message(topic, schema string, t time.Time, data []byte) error {
	ch, ok := e.channels[topic]
	if !ok {
		var sid uint16
		if schema != "" {
			if sid, ok = e.schemas[schema]; !ok {
				text, err := foxgloveSchemas.ReadFile("foxglove/" + schema + ".json")
				if err != nil {
					return fmt.Errorf("schema %s: %w", schema, err)
				}
				sid = uint16(len(e.schemas) + 1)
				if err := e.w.WriteSchema(&mcap.Schema{ID: sid, Name: schema, Encoding: "jsonschema", Data: text}); err != nil {
					return fmt.Errorf("schema %s: %w", schema, err)
				}
				e.schemas[schema] = sid
			}
		}
		ch = uint16(len(e.channels))
		if err := e.w.WriteChannel(&mcap.Channel{ID: ch, SchemaID: sid, Topic: topic, MessageEncoding: "json", Metadata: map[string]string{}}); err != nil {
			return fmt.Errorf("channel %s: %w", topic, err)
		}
		e.channels[topic] = ch
	}
	ns := uint64(t.UnixNano())
	e.seq[ch]++
	if err := e.w.WriteMessage(&mcap.Message{ChannelID: ch, Sequence: e.seq[ch], LogTime: ns, PublishTime: ns, Data: data}); err != nil {
		return fmt.Errorf("message on %s: %w", topic, err)
	}
	return nil
}
