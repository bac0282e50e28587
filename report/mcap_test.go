package report

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/foxglove/mcap/go/mcap"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

type mcapRead struct {
	info   *mcap.Info
	counts map[string]int
	schema map[string]string
	msgs   map[string][][]byte
}

// readMCAP reads b back with the mcap library's reader, through the index
// (the summary) and again front to back, checking both agree.
func readMCAP(t *testing.T, b []byte) mcapRead {
	t.Helper()
	rd, err := mcap.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	info, err := rd.Info()
	if err != nil {
		t.Fatal(err)
	}
	if info.Statistics == nil || len(info.ChunkIndexes) == 0 || info.Footer.SummaryCRC == 0 {
		t.Fatalf("want statistics, chunk indexes and a summary CRC: %+v", info.Footer)
	}
	got := mcapRead{info: info, counts: map[string]int{}, schema: map[string]string{}, msgs: map[string][][]byte{}}
	compiled := map[string]*jsonschema.Schema{}
	for _, indexed := range []bool{true, false} {
		rd, err := mcap.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		it, err := rd.Messages(mcap.UsingIndex(indexed))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			s, ch, m, err := it.NextInto(nil)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("indexed %v: %v", indexed, err)
			}
			n++
			if m.LogTime != m.PublishTime {
				t.Errorf("%s: log time %d, publish time %d", ch.Topic, m.LogTime, m.PublishTime)
			}
			if indexed {
				got.counts[ch.Topic]++
				got.msgs[ch.Topic] = append(got.msgs[ch.Topic], bytes.Clone(m.Data))
				if s != nil {
					got.schema[ch.Topic] = s.Name
					validate(t, compiled, s, ch.Topic, m.Data)
				}
			}
		}
		if uint64(n) != info.Statistics.MessageCount {
			t.Errorf("indexed %v: %d messages, statistics say %d", indexed, n, info.Statistics.MessageCount)
		}
	}
	return got
}

// validate checks one message against its channel's schema, Foxglove's JSON
// Schema as written into the file.
func validate(t *testing.T, compiled map[string]*jsonschema.Schema, s *mcap.Schema, topic string, data []byte) {
	t.Helper()
	sch, ok := compiled[s.Name]
	if !ok {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(s.Data))
		if err != nil {
			t.Fatalf("schema %s: %v", s.Name, err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(s.Name+".json", doc); err != nil {
			t.Fatal(err)
		}
		if sch, err = c.Compile(s.Name + ".json"); err != nil {
			t.Fatalf("schema %s: %v", s.Name, err)
		}
		compiled[s.Name] = sch
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: not JSON: %v", topic, err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("%s: not a valid %s: %v", topic, s.Name, err)
	}
}

// The hostile run as MCAP: its events each on their kind's channel, the
// one image that is an image on its camera's (the HTML and the path out of
// the run directory are said in the trace, never exported), the trace on
// foxglove.Log.
func TestMCAPRoundTrip(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMCAP(t.Context(), &b, hostileRun(t)); err != nil {
		t.Fatal(err)
	}
	got := readMCAP(t, b.Bytes())
	cam := TopicCameraPfx + "head" + hostile
	for topic, want := range map[string]int{
		TopicEventsPfx + "context": 2, TopicEventsPfx + "model": 2, TopicEventsPfx + "hook": 1, TopicEventsPfx + "observation": 1,
		TopicEventsPfx + "done": 1, cam: 1, TopicLog: 13 + 2,
	} {
		if got.counts[topic] != want {
			t.Errorf("%s: %d messages, want %d", topic, got.counts[topic], want)
		}
	}
	if got.schema[cam] != "foxglove.CompressedImage" || got.schema[TopicLog] != "foxglove.Log" || got.schema[TopicEventsPfx+"model"] != "" {
		t.Errorf("schemas: %v", got.schema)
	}
	for _, s := range got.info.Schemas {
		if s.Encoding != "jsonschema" || !json.Valid(s.Data) || !bytes.Contains(s.Data, []byte(`"title": "`+s.Name+`"`)) {
			t.Errorf("schema %s (%s): not Foxglove's JSON Schema", s.Name, s.Encoding)
		}
	}
	var img fgCompressedImage
	if err := json.Unmarshal(got.msgs[cam][0], &img); err != nil {
		t.Fatal(err)
	}
	data, _ := base64.StdEncoding.DecodeString(img.Data)
	if img.Format != "png" || !bytes.Equal(data, pngBytes(t, 32, 24)) {
		t.Errorf("image: format %q, %d bytes, not the saved PNG", img.Format, len(data))
	}
	logs := ""
	for _, m := range got.msgs[TopicLog] {
		logs += string(m) + "\n"
	}
	for _, want := range []string{`"level":3,"message":"not exported: turn 1: image evil.png: content is text/html`, `../secret.png`, `turn 1 · hook pre clamp`, `"file":"events.jsonl","line":5}`} {
		if !strings.Contains(logs, want) {
			t.Errorf("trace lacks %s", want)
		}
	}
	var ev runlog.Event
	if err := json.Unmarshal(got.msgs[TopicEventsPfx+"done"][0], &ev); err != nil || ev.Done == nil || ev.Done.Reason != runlog.DoneFinal {
		t.Errorf("done event: %+v %v", ev, err)
	}
}

// Poses and positions: the base's pose as a map → base transform, the
// Scene Graph's objects and places as entities in the map frame.
func TestMCAPPoseAndScene(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 500, time.UTC)
	obs := &world.Observation{Pose: &world.Pose{X: 1, Y: 2, ThetaDeg: 90}, Detections: []world.Detection{
		{Name: "mug", ID: "mug-1", Position: &world.Point{X: 3, Y: 4}, Target: "table", Relation: "on"},
		{Name: "mug", ID: "mug-2", Position: &world.Point{X: 3.5, Y: 4}},
	}}
	dir := writeRun(t, []runlog.Line{
		{Event: runlog.Event{Kind: runlog.EventTaskStart, Time: t0, Task: 1, Text: "go"}},
		{Event: runlog.Event{Kind: runlog.EventObservation, Time: t0.Add(time.Second), Task: 1, Turn: 1, Observation: obs}},
	}, nil)
	var b bytes.Buffer
	if err := WriteMCAP(t.Context(), &b, dir); err != nil {
		t.Fatal(err)
	}
	got := readMCAP(t, b.Bytes())
	if len(got.msgs[TopicTF]) != 1 || len(got.msgs[TopicScene]) != 1 {
		t.Fatalf("tf %d, scene %d messages; want 1 each", len(got.msgs[TopicTF]), len(got.msgs[TopicScene]))
	}
	var tf fgFrameTransform
	if err := json.Unmarshal(got.msgs[TopicTF][0], &tf); err != nil {
		t.Fatal(err)
	}
	if tf.ParentFrameID != FrameMap || tf.ChildFrameID != FrameBase || tf.Translation.X != 1 || tf.Translation.Y != 2 ||
		tf.Rotation.Z < 0.707 || tf.Rotation.Z > 0.7072 || tf.Timestamp != (fgTime{Sec: t0.Unix() + 1, Nsec: 500}) {
		t.Errorf("transform: %+v", tf)
	}
	var su fgSceneUpdate
	if err := json.Unmarshal(got.msgs[TopicScene][0], &su); err != nil {
		t.Fatal(err)
	}
	ids := map[string]fgEntity{}
	for _, e := range su.Entities {
		ids[e.ID] = e
		if e.FrameID != FrameMap {
			t.Errorf("%s in frame %q", e.ID, e.FrameID)
		}
	}
	if len(ids) != 3 || ids["place:table"].Cubes == nil || ids["object:mug"].Texts[0].Text != "mug" || ids["object:mug#2"].ID == "" {
		t.Errorf("entities: %v", ids)
	}
	if len(su.Deletions) != 1 || su.Deletions[0].Type != 1 {
		t.Errorf("deletions: %+v", su.Deletions)
	}
}

// An event without a time cannot be placed on the timeline: an error
// naming it, not a message at 1970.
func TestMCAPEventWithoutTime(t *testing.T) {
	dir := writeRun(t, []runlog.Line{
		{Event: runlog.Event{Kind: runlog.EventTaskStart, Time: time.Now(), Task: 1, Text: "go"}},
		{Event: runlog.Event{Kind: runlog.EventContext, Task: 1, Turn: 1}},
	}, nil)
	err := WriteMCAP(t.Context(), io.Discard, dir)
	if err == nil || !strings.Contains(err.Error(), "events.jsonl:2: context event of turn 1: no time") {
		t.Fatalf("err = %v", err)
	}
}
