package engine_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/models/script"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// The secrets of the redaction tests, one of each kind: two API keys (the
// acting model's and the consolidation model's api_key_env), a number and
// a string declared by run_log.secret_env, and a card number only the
// pattern 4111[0-9]{12} matches.
const (
	redMainKey = "sk-redact-main-0a1b2c3d"
	redConsKey = "sk-redact-cons-4e5f6a7b"
	redPIN     = "987654321012"
	redToken   = "tok-redact-5e5e5e5e"
	redCard    = "4111111111111111"
)

var redSecrets = []string{redMainKey, redConsKey, redPIN, redToken, redCard,
	// The same numbers as a float64's default Go formatting would print them.
	"9.87654321012e+11", "4.111111111111111e+15"}

// leaks lists the secrets s carries.
func leaks(s string) []string {
	var out []string
	for _, sec := range redSecrets {
		if strings.Contains(s, sec) {
			out = append(out, sec)
		}
	}
	return out
}

// redactionFixture is a session whose every input carries the secrets: the
// instruction, a back-end's tool result (numbers as float64, as decoded
// JSON arrives) and observation, MEMORY.md, the skill catalog; its
// compaction and consolidation models are scripted to write them back.
func redactionFixture(t *testing.T) *fixture {
	t.Helper()
	t.Setenv("THEA_RED_MAIN_KEY", redMainKey)
	t.Setenv("THEA_RED_CONS_KEY", redConsKey)
	t.Setenv("THEA_RED_PIN", redPIN)
	t.Setenv("THEA_RED_TOKEN", redToken)
	vault := call("vault", `{"open":true}`)
	f := newFixture(t, toolResp("", vault), toolResp("", vault), toolResp("", vault), toolResp("", vault),
		toolResp("the vault is open"), toolResp("", vault), toolResp("checked again"))
	f.spec.Model.Config = testModel{Name: "main", APIKeyEnv: "THEA_RED_MAIN_KEY"}
	f.spec.RunLog = schema.RunLog{Enabled: true, Dir: "runs", SecretEnv: []string{"THEA_RED_PIN", "THEA_RED_TOKEN"},
		Redact: []string{`4111[0-9]{12}`}}
	summariser := &schema.Model{Provider: "test", Config: testModel{Name: "summariser", APIKeyEnv: "THEA_RED_CONS_KEY"}}
	f.spec.Memory = schema.Memory{Dir: "mem", ToolExperienceChars: 400, MemoryChars: 8000, Consolidation: schema.Consolidation{
		Enabled: true, Threshold: 0.5, Model: summariser}}
	c := &f.spec.Context.Compaction
	c.Enabled, c.ContextWindow, c.ReserveTokens, c.KeepRecentTurns, c.KeepRecentTokens = true, 2500, 500, 1, 400
	c.CompactionModel = summariser
	f.skills = secretCatalog{}

	padding := strings.Repeat("x", 3000) // each result ≈ 750 tokens: compaction is due by turn 4
	f.addTool("core", "vault", func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{
			"pin": 987654321012.0, "card": 4111111111111111.0, "token": redToken,
			"note": "keys " + redMainKey + " and " + redConsKey, "padding": padding,
		}}
	})
	f.tool("observe").fn = func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{
			"summary": "the vault's display shows " + redToken,
			"state":   map[string]any{"pin": 987654321012.0, "card": int64(4111111111111111)},
		}}
	}
	mem := filepath.Join(f.spec.Dir, "mem")
	must(t, os.MkdirAll(mem, 0o755))
	must(t, os.WriteFile(filepath.Join(mem, "MEMORY.md"),
		[]byte("# Memory\n- The vault PIN is "+redPIN+" and the card "+redCard+".\n- The old token was "+redToken+".\n"), 0o600))

	// The models write the secrets back: a summary and memory candidates
	// that hold them (a model may know a secret from elsewhere).
	echo := "pin " + redPIN + ", card " + redCard + ", token " + redToken + ", keys " + redMainKey + " " + redConsKey
	var entries []script.Entry
	for range 6 {
		entries = append(entries, script.Entry{Purpose: model.PurposeCompact, Text: "Earlier: opened the vault with " + echo})
	}
	cands, err := json.Marshal(map[string]any{"candidates": []any{
		map[string]any{"scope": "memory", "entry": "The vault opens with " + echo, "confidence": 0.9},
		map[string]any{"scope": "tool", "tool": "vault", "entry": "vault answers with " + echo, "confidence": 0.9},
	}})
	must(t, err)
	for range 2 {
		entries = append(entries, script.Entry{Purpose: model.PurposeConsolidate, Text: string(cands)})
	}
	sm, err := script.FromEntries("redaction script", entries...)
	must(t, err)
	f.compact = &recorder{inner: sm, name: "summariser", log: f.log}
	return f
}

// secretCatalog is a skill catalog whose text holds a secret.
type secretCatalog struct{ fakeCatalog }

func (secretCatalog) Render() string {
	return "Skill catalog: vault (the vault's token is " + redToken + ")"
}

// Every model request of every purpose — decide (instruction, tool results,
// observation, memory, skill catalog, tool experience, the compaction
// checkpoint), compact and consolidate — reaches the provider without a
// secret, numbers included; so do the events, the run log and both memory
// files written by consolidation.
func TestNoExitCarriesASecret(t *testing.T) {
	f := redactionFixture(t)
	h := f.harness(t)
	instruction := "open the vault with PIN " + redPIN + " and card " + redCard
	var evs []runlog.Event
	for _, in := range []string{instruction, "check the vault again"} {
		got := collect(h.RunStream(t.Context(), in))
		if d := got[len(got)-1]; d.Kind != runlog.EventDone || d.Done.Reason != runlog.DoneFinal {
			t.Fatalf("task %q ended %+v", in, d.Done)
		}
		evs = append(evs, got...)
	}

	purposes := map[model.Purpose]int{}
	for i, req := range append(f.decide.requests(), f.compact.requests()...) {
		purposes[req.Purpose]++
		b, err := json.Marshal(req)
		must(t, err)
		if l := leaks(string(b)); len(l) > 0 {
			t.Errorf("request %d (%s) carries %v", i+1, req.Purpose, l)
		}
	}
	if purposes[model.PurposeDecide] != 7 || purposes[model.PurposeCompact] == 0 || purposes[model.PurposeConsolidate] != 2 {
		t.Fatalf("requests by purpose %v: want 7 decisions, a compaction and 2 consolidations", purposes)
	}
	// What the model sees of each input: the marker where the secret was.
	first := requestText(f.decide.requests()[0])
	for _, want := range []string{"PIN [redacted] and card [redacted]", "The vault PIN is [redacted] and the card [redacted].",
		"vault's token is [redacted]", "display shows [redacted]"} {
		if !strings.Contains(first, want) {
			t.Errorf("first decide request lacks %q:\n%s", want, first)
		}
	}
	last := f.decide.requests()[6]
	var vaultDesc string
	for _, d := range last.Tools {
		if d.Name == "vault" {
			vaultDesc = d.Description
		}
	}
	if !strings.Contains(vaultDesc, "vault answers with pin [redacted], card [redacted]") {
		t.Errorf("the second task's vault description lacks its redacted experience:\n%s", vaultDesc)
	}

	var result *runlog.Envelope
	for _, ev := range evs {
		b, err := json.Marshal(ev)
		must(t, err)
		if l := leaks(string(b)); len(l) > 0 {
			t.Errorf("%s event carries %v: %s", ev.Kind, l, b)
		}
		if ev.Kind == runlog.EventToolResult && ev.Tool == "vault" && result == nil {
			result = ev.Result
		}
	}
	if result == nil || result.Value["pin"] != "[redacted]" || result.Value["card"] != "[redacted]" {
		t.Errorf("vault result in the event = %+v, want both numbers replaced by the marker", result)
	}

	var files, checkpoints int
	err := filepath.WalkDir(f.spec.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if d.Name() == engine.CheckpointFile {
			checkpoints++ // the checkpoint beside each run log is an exit too
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(f.spec.Dir, p)
		if rel == filepath.Join("mem", "MEMORY.md") {
			// The lines a person wrote stay as written; the written
			// entries must not add a secret.
			b = []byte(strings.Join(strings.Split(string(b), "\n")[3:], "\n"))
		}
		if l := leaks(string(b)); len(l) > 0 {
			t.Errorf("%s carries %v:\n%s", rel, l, b)
		}
		files++
		return nil
	})
	must(t, err)
	for _, rel := range []string{"MEMORY.md", filepath.Join("tool_experience", "vault.md")} {
		b, err := os.ReadFile(filepath.Join(f.spec.Dir, "mem", rel))
		must(t, err)
		if !strings.Contains(string(b), "pin [redacted], card [redacted], token [redacted], keys [redacted] [redacted]") {
			t.Errorf("%s lacks the redacted entry:\n%s", rel, b)
		}
	}
	if files < 4 || checkpoints != 2 { // two run logs, their checkpoints, two memory files
		t.Fatalf("only %d files under the spec dir, %d checkpoints", files, checkpoints)
	}
}

// `thea context` shows the request as the model would receive it.
func TestPreviewIsRedacted(t *testing.T) {
	f := redactionFixture(t)
	h := f.harness(t)
	p, err := h.Preview(t.Context(), "open the vault with PIN "+redPIN)
	must(t, err)
	b, err := json.Marshal(p)
	must(t, err)
	if l := leaks(string(b)); len(l) > 0 {
		t.Fatalf("preview carries %v", l)
	}
	if !strings.Contains(requestText(p.Request), "PIN [redacted]") {
		t.Fatalf("preview request:\n%s", requestText(p.Request))
	}
}

// BenchmarkTurnAt1000Redacted is BenchmarkTurnAt1000 with secrets declared
// (an API key, a secret_env value, two patterns), none present: the cost of
// redacting every event and every request of a long task.
func BenchmarkTurnAt1000Redacted(b *testing.B) {
	b.Setenv("THEA_BENCH_KEY", redMainKey)
	b.Setenv("THEA_BENCH_TOKEN", redToken)
	benchTurns(b, 1000, 500, func(f *fixture) {
		f.spec.Model.Config = testModel{Name: "main", APIKeyEnv: "THEA_BENCH_KEY"}
		f.spec.RunLog.SecretEnv = []string{"THEA_BENCH_TOKEN"}
		f.spec.RunLog.Redact = []string{`4111[0-9]{12}`, `pw-[0-9]+`}
	})
}
