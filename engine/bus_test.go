package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// captureSink keeps what it is given: an Options.Sinks sink.
type captureSink struct {
	mu     sync.Mutex
	info   engine.TaskInfo
	evs    []runlog.Event
	closed bool
	fail   func(runlog.Event) error
}

func (c *captureSink) Write(ev runlog.Event) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.evs = append(c.evs, ev)
	if c.fail != nil {
		return c.fail(ev)
	}
	return nil
}

func (c *captureSink) Close() error { c.closed = true; return nil }

// A secret declared three ways (api_key_env, run_log.secret_env, a redact
// pattern) that a tool echoes back in values, keys, reasons, observation
// labels and camera names reaches no sink: not the stream consumer, not an
// Options.Sinks sink, not any file under the run directory.
func TestBusRedactsBeforeEverySink(t *testing.T) {
	const key, token, pw = "sk-apikey-7f3a9c1d", "tok-secretenv-55aa", "pw-31337"
	t.Setenv("THEA_BUS_KEY", key)
	t.Setenv("THEA_BUS_TOKEN", token)
	f := newFixture(t,
		toolResp("calling echo", call("echo", `{"say":"hello"}`)),
		toolResp("the backend said "+key))
	f.spec.Model.Config = testModel{Name: "main", APIKeyEnv: "THEA_BUS_KEY"}
	f.spec.RunLog = schema.RunLog{Enabled: true, Dir: "runs", SecretEnv: []string{"THEA_BUS_TOKEN"}, Redact: []string{`pw-[0-9]+`}}
	f.tool("observe").fn = func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{
			"summary":    "sees " + token,
			"detections": []any{map[string]any{"name": "box " + pw, "visible": true}},
		}, Images: []world.Image{{Camera: "cam-" + key, MIME: "image/png", Data: []byte("PNG")}}}
	}
	f.addTool("core", "echo", func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{
			"echo": key + " " + token + " " + pw, token: "a key holding a secret", "ok": "plain",
		}, Images: []world.Image{{Camera: pw, MIME: "image/png", Data: []byte("PNG2")}}}
	})
	capture := &captureSink{}
	opts := f.options(t)
	opts.Sinks = []engine.SinkFactory{func(info engine.TaskInfo) (engine.Sink, error) {
		capture.info = info
		return capture, nil
	}}
	h, err := engine.New(t.Context(), f.spec, opts)
	must(t, err)
	defer h.Close()
	streamed := collect(h.RunStream(t.Context(), "go"))

	secrets := []string{key, token, pw}
	for name, evs := range map[string][]runlog.Event{"stream": streamed, "sink": capture.evs} {
		b, err := json.Marshal(evs)
		must(t, err)
		for _, s := range secrets {
			if strings.Contains(string(b), s) {
				t.Errorf("%s carries secret %q", name, s)
			}
			for _, ev := range evs {
				for _, img := range ev.Images {
					if strings.Contains(img.Camera, s) {
						t.Errorf("%s: image camera %q carries a secret", name, img.Camera)
					}
				}
			}
		}
	}
	if !capture.closed || capture.info.Task != 1 || capture.info.RunDir == "" || len(capture.evs) != len(streamed) {
		t.Errorf("sink: closed %v, info %+v, %d events (stream %d)", capture.closed, capture.info, len(capture.evs), len(streamed))
	}
	var result *runlog.Envelope
	for _, ev := range streamed {
		if ev.Kind == runlog.EventToolResult && ev.Tool == "echo" {
			result = ev.Result
		}
	}
	if result == nil || result.Value["ok"] != "plain" || result.Value["[redacted]"] != "a key holding a secret" ||
		result.Value["echo"] != "[redacted] [redacted] [redacted]" {
		t.Errorf("echo result = %+v, want its keys kept and the secret-holding key replaced", result)
	}
	done := streamed[len(streamed)-1].Done
	if done == nil || done.Text != "the backend said [redacted]" {
		t.Errorf("done = %+v", done)
	}
	// Every file under the run directory: names and contents.
	n := 0
	must(t, filepath.WalkDir(capture.info.RunDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, s := range secrets {
			if strings.Contains(string(b), s) || strings.Contains(d.Name(), s) {
				t.Errorf("run log file %s carries secret %q", d.Name(), s)
			}
		}
		if fi, err := d.Info(); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v (err %v), want 0600", d.Name(), fi.Mode().Perm(), err)
		}
		return nil
	}))
	if n != 5 { // events.jsonl, checkpoint.json, two observation images, one result image
		t.Errorf("%d files in the run directory, want 5", n)
	}
}

// Redacting a typed Event reaches every string field, however deep (a new
// field added to Event is covered without touching the redactor), and
// keeps the event usable: kind and done reason, numbers, image bytes.
func TestRedactReachesEveryEventField(t *testing.T) {
	const secret = "sk-fieldcover-0099"
	ev := runlog.Event{}
	fill(reflect.ValueOf(&ev).Elem(), secret, 0)
	ev.Kind = runlog.EventToolResult
	ev.Done.Reason = runlog.DoneFinal
	// Typed vocabulary (named string types) is the harness's own, not data.
	ev.Hook.Decision = runlog.DecisionClamp
	ev.Hook.Confirmation.Outcome = runlog.ConfirmDeny
	ev.Safety = runlog.SafetyLateReply
	ev.Verdict.Status = world.VerdictSuccess
	ev.Result.Verdict.Status = world.VerdictFailure
	ev.ModelCall.Purpose = model.PurposeEvaluate
	ev.Retry.Purpose = model.PurposeEvaluate
	r := redact.New([]string{secret}, nil)
	out := redact.Value(r, ev)
	var leak []string
	walkStrings(reflect.ValueOf(out), "Event", func(path, s string) {
		if strings.Contains(s, secret) {
			leak = append(leak, path)
		}
	})
	if len(leak) > 0 {
		t.Errorf("secret left in %v", leak)
	}
	if out.Kind != runlog.EventToolResult || out.Done.Reason != runlog.DoneFinal || out.Turn != ev.Turn ||
		string(out.Images[0].Data) != string(ev.Images[0].Data) || !out.Time.Equal(ev.Time) {
		t.Errorf("event broken by redaction: %+v", out)
	}
	if _, err := json.Marshal(out); err != nil {
		t.Errorf("redacted event does not encode: %v", err)
	}
	if reflect.DeepEqual(out, ev) {
		t.Error("nothing was redacted")
	}
}

// fill sets every exported string, number and slot reachable from v, with
// one map entry whose key and value hold the secret.
func fill(v reflect.Value, secret string, depth int) {
	if depth > 6 {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x " + secret)
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	case reflect.Float64:
		v.SetFloat(0.5)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), secret, depth+1)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), secret, depth+1)
			}
		}
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			v.SetBytes([]byte(`{"raw":"x ` + secret + `"}`))
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			v.SetBytes([]byte("bytes " + secret))
			return
		}
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), secret, depth+1)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e, secret, depth+1)
		m.SetMapIndex(reflect.ValueOf("k-"+secret).Convert(v.Type().Key()), e)
		v.Set(m)
	case reflect.Interface:
		v.Set(reflect.ValueOf(map[string]any{"nested " + secret: []any{"deep " + secret}}))
	}
}

// walkStrings calls fn with every string (and string map key) reachable
// from v, skipping byte slices.
func walkStrings(v reflect.Value, path string, fn func(path, s string)) {
	switch v.Kind() {
	case reflect.String:
		fn(path, v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkStrings(v.Elem(), path, fn)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walkStrings(v.Field(i), path+"."+v.Type().Field(i).Name, fn)
			}
		}
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			fn(path, string(v.Bytes()))
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := range v.Len() {
			walkStrings(v.Index(i), path+"[]", fn)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			walkStrings(it.Key(), path+"{key}", fn)
			walkStrings(it.Value(), path+"{}", fn)
		}
	}
}

// A sink that fails is reported on every other sink and in the report;
// the task carries on unless the run log is required.
func TestSinkFailureIsReported(t *testing.T) {
	for _, required := range []bool{false, true} {
		f := newFixture(t, toolResp("", call("move", `{}`)), toolResp("", call("move", `{}`)), toolResp("finished"))
		f.spec.RunLog = schema.RunLog{Enabled: true, Dir: "runs", Required: required}
		other := &captureSink{}
		opts := f.options(t)
		var runDir string
		opts.Sinks = []engine.SinkFactory{func(info engine.TaskInfo) (engine.Sink, error) {
			runDir = info.RunDir
			return other, nil
		}}
		h, err := engine.New(t.Context(), f.spec, opts)
		must(t, err)
		// Break the run log mid-task: its directory goes, so the next image
		// cannot be saved (the observation tool returns one).
		f.tool("move").fn = func(context.Context, map[string]any) runlog.Envelope {
			_ = os.RemoveAll(runDir)
			return runlog.Envelope{Success: true, Images: []world.Image{{Camera: "head", MIME: "image/png", Data: []byte("x")}}}
		}
		evs := collect(h.RunStream(t.Context(), "go"))
		_ = h.Close()
		var sinkErrs []runlog.Event
		for _, ev := range other.evs {
			if ev.Kind == runlog.EventSinkError {
				sinkErrs = append(sinkErrs, ev)
			}
		}
		done := evs[len(evs)-1].Done
		if len(sinkErrs) != 1 || !strings.HasPrefix(sinkErrs[0].Text, "run log incomplete from turn 1: ") {
			t.Fatalf("required=%v: sink_error events on the other sink: %+v", required, sinkErrs)
		}
		if !strings.Contains(done.Text, "run log incomplete from turn 1") {
			t.Errorf("required=%v: report lacks the loss: %q", required, done.Text)
		}
		if required && (done.Reason != runlog.DoneError || done.Turns != 1) {
			t.Errorf("required run log lost events and the task went on: %+v", done)
		}
		if !required && (done.Reason != runlog.DoneFinal || done.Turns != 3) {
			t.Errorf("optional run log: task did not carry on: %+v", done)
		}
	}
}

// A sink that cannot open ends the task before it starts, with one done
// event; the sinks already open are closed.
func TestSinkOpenFailure(t *testing.T) {
	f := newFixture(t, toolResp("finished"))
	first := &captureSink{}
	opts := f.options(t)
	opts.Sinks = []engine.SinkFactory{
		func(engine.TaskInfo) (engine.Sink, error) { return first, nil },
		func(engine.TaskInfo) (engine.Sink, error) { return nil, errors.New("no SSE client") },
	}
	h, err := engine.New(t.Context(), f.spec, opts)
	must(t, err)
	defer h.Close()
	evs := collect(h.RunStream(t.Context(), "go"))
	if countDone(evs) != 1 || evs[len(evs)-1].Done.Reason != runlog.DoneError || !strings.Contains(evs[len(evs)-1].Done.Error, "event sink 1: no SSE client") {
		t.Errorf("events %v, done %+v", kinds(evs), evs[len(evs)-1].Done)
	}
	if !first.closed {
		t.Error("the sink opened first was not closed")
	}
}

// A camera named with 300 characters still gets its image saved and its
// event written.
func TestRunLogLongCameraName(t *testing.T) {
	f := newFixture(t, toolResp("finished"))
	f.spec.RunLog = schema.RunLog{Enabled: true, Dir: "runs"}
	f.tool("observe").fn = func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{"summary": "hall"},
			Images: []world.Image{{Camera: strings.Repeat("c", 300) + "/../x", MIME: "image/png", Data: []byte("PNG")}}}
	}
	rep, err := f.harness(t).Run(t.Context(), "go")
	must(t, err)
	if strings.Contains(rep.Text, "incomplete") {
		t.Fatalf("report: %s", rep.Text)
	}
	raw, err := os.ReadFile(filepath.Join(rep.RunDir, "events.jsonl"))
	must(t, err)
	if !strings.Contains(string(raw), `"kind":"observation"`) || !strings.Contains(string(raw), "image_files") {
		t.Errorf("observation event or its image missing:\n%s", raw)
	}
}
