package cli_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/thea-harness/thea/embodiments/sim"
	"github.com/thea-harness/thea/internal/testtime"
)

// The resume tests' robot and model. The robot is the household simulator
// in a process of its own (this binary re-executed as simHTTPArg), served
// over streamable HTTP so it outlives the thea it serves, as a robot
// outlives the process that drives it; it logs every tool call it ran. The
// model is a policy over that log: it asks for the next step of "put the
// mug in the top drawer" that has not succeeded at the robot, so it never
// asks twice for a motion that already happened, and any motion run twice
// is the harness's doing.

// simHTTPArg re-executes this binary as the simulator over HTTP: args are
// the world file, the file to write the listening address to, and the
// call log. It serves until its stdin closes.
const simHTTPArg = "resume-sim-http"

// simCall is one line of the simulator's call log.
type simCall struct {
	Tool    string         `json:"tool"`
	Args    map[string]any `json:"args"`
	Success bool           `json:"success"`
}

func serveSimHTTP(args []string) error {
	if len(args) != 3 {
		return fmt.Errorf("%s WORLD ADDR_FILE CALL_LOG", simHTTPArg)
	}
	ctx := context.Background()
	w, err := sim.LoadWorld(ctx, args[0])
	if err != nil {
		return err
	}
	log, err := os.OpenFile(args[2], os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer log.Close()
	var mu sync.Mutex
	srv := sim.NewServer(w, 7)
	srv.Use(func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := next(ctx, req)
			line, _ := json.Marshal(simCall{Tool: req.Params.Name, Args: req.GetArguments(), Success: err == nil && res != nil && !res.IsError})
			mu.Lock()
			_, werr := log.Write(append(line, '\n'))
			mu.Unlock()
			if werr != nil {
				return nil, werr
			}
			return res, err
		}
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go func() { _ = http.Serve(ln, server.NewStreamableHTTPServer(srv)) }()
	tmp := args[1] + ".tmp"
	if err := os.WriteFile(tmp, []byte(ln.Addr().String()), 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, args[1]); err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, os.Stdin)
	return nil
}

// startSimHTTP starts the simulator for one case in dir and returns its
// MCP URL and its call log's path.
func startSimHTTP(t *testing.T, dir string) (url, callLog string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	addrFile, callLog := filepath.Join(dir, "sim.addr"), filepath.Join(dir, "sim-calls.jsonl")
	cmd := exec.Command(self, simHTTPArg, filepath.Join(dir, "world.yaml"), addrFile, callLog)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = stdin.Close() // it exits when its input closes
		_ = cmd.Wait()
	})
	var addr []byte
	testtime.Wait(t, "the simulator's address file", func() bool {
		addr, err = os.ReadFile(addrFile)
		return err == nil && len(addr) > 0
	})
	return "http://" + string(addr) + "/mcp", callLog
}

// readSimCalls reads the simulator's call log.
func readSimCalls(t *testing.T, path string) []simCall {
	t.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []simCall
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c simCall
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, c)
	}
	return out
}

// policyModel speaks OpenAI's chat completions wire: a decide request
// (one with tools) gets the next step the robot has not done; a request
// without tools (the evaluator's) gets a success verdict. It keeps every
// request body.
type policyModel struct {
	callLog string
	mu      sync.Mutex
	bodies  []string
	ids     int
}

func newPolicyModel(t *testing.T, callLog string) (*policyModel, string) {
	m := &policyModel{callLog: callLog}
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	return m, srv.URL
}

// requests returns the bodies received so far.
func (m *policyModel) requests() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.bodies...)
}

// step is one step of the task, done once the robot ran it successfully.
type step struct {
	tool string
	args map[string]any
}

var mugSteps = []step{
	{"navigate_to", map[string]any{"target": "table"}},
	{"move_base", map[string]any{"direction": "forward", "distance_m": 1.0}},
	{"pick_up", map[string]any{"object_name": "mug"}},
	{"navigate_to", map[string]any{"target": "cabinet"}},
	{"open_drawer", map[string]any{"name": "top_drawer"}},
	{"place", map[string]any{"object_name": "mug", "target": "top_drawer", "relation": "in"}},
	{"close_drawer", map[string]any{"name": "top_drawer"}},
}

// done reports whether the robot ran s successfully (move_base by tool
// alone: the harness clamps its distance).
func (s step) done(calls []simCall) bool {
	for _, c := range calls {
		if !c.Success || c.Tool != s.tool {
			continue
		}
		same := true
		for k, v := range s.args {
			if k != "distance_m" && c.Args[k] != v {
				same = false
			}
		}
		if same {
			return true
		}
	}
	return false
}

func (m *policyModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	m.mu.Lock()
	m.bodies = append(m.bodies, string(body))
	m.ids++
	id := m.ids
	m.mu.Unlock()
	msg := map[string]any{"role": "assistant"}
	switch {
	case len(req.Tools) == 0:
		msg["content"] = `{"status": "success", "reason": "The observation after the call shows it done.", "evidence": "observation", "confidence": 0.9}`
	default:
		calls := readSimCallsNoT(m.callLog)
		next := -1
		for i, s := range mugSteps {
			// A step is due when it and everything after it is undone: what
			// the robot already did is never asked for again.
			if !s.done(calls) && (i == len(mugSteps)-1 || !anyDone(mugSteps[i+1:], calls)) {
				next = i
				break
			}
		}
		if next < 0 {
			msg["content"] = "Done: the mug is in the top drawer and the drawer is closed."
			break
		}
		s := mugSteps[next]
		args, _ := json.Marshal(s.args)
		msg["content"] = "Next: " + s.tool
		msg["tool_calls"] = []any{map[string]any{"id": fmt.Sprintf("call_policy_%d", id), "type": "function",
			"function": map[string]any{"name": s.tool, "arguments": string(args)}}}
	}
	out, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("chatcmpl-%d", id), "object": "chat.completion",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": 100, "completion_tokens": 10}})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

func anyDone(steps []step, calls []simCall) bool {
	for _, s := range steps {
		if s.done(calls) {
			return true
		}
	}
	return false
}

// readSimCallsNoT reads the call log from the model server's goroutine (a
// torn last line, being written, is left for the next request).
func readSimCallsNoT(path string) []simCall {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []simCall
	for _, l := range strings.Split(string(b), "\n") {
		var c simCall
		if json.Unmarshal([]byte(l), &c) == nil && c.Tool != "" {
			out = append(out, c)
		}
	}
	return out
}
