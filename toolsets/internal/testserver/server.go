package testserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// MarkerEnv names the file a cancelled slow call writes, so a test can see
// that the cancellation reached the server.
const MarkerEnv = "THEA_TEST_MARKER"

// StartedEnv names the file a slow call writes when it starts.
const StartedEnv = "THEA_TEST_STARTED"

func jsonResult(v map[string]any) *mcp.CallToolResult {
	b, _ := json.Marshal(v)
	return mcp.NewToolResultText(string(b))
}

// New builds the server.
func New() *server.MCPServer {
	s := server.NewMCPServer("thea-testserver", "0.0.1", append(hostileDefs(), server.WithRecovery())...)
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("echo text back"),
		mcp.WithString("text", mcp.Required()), mcp.WithNumber("times")),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return jsonResult(map[string]any{"echo": r.GetString("text", ""), "run_id": "run-echo"}), nil
		})
	s.AddTool(mcp.NewTool("plain", mcp.WithDescription("returns plain text")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("just words"), nil
		})
	s.AddTool(mcp.NewTool("move", mcp.WithDescription("a physical motion that takes ms milliseconds"),
		mcp.WithNumber("ms", mcp.Required())),
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			d := time.Duration(r.GetFloat("ms", 0)) * time.Millisecond
			if p := os.Getenv(StartedEnv); p != "" {
				_ = os.WriteFile(p, []byte("started"), 0o644)
			}
			select {
			case <-time.After(d):
				return jsonResult(map[string]any{"moved": true}), nil
			case <-ctx.Done():
				if p := os.Getenv(MarkerEnv); p != "" {
					_ = os.WriteFile(p, []byte("cancelled"), 0o644)
				}
				return nil, ctx.Err()
			}
		})
	s.AddTool(mcp.NewTool("crash", mcp.WithDescription("exits the server mid-call")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "testserver: crashing on purpose")
			os.Exit(3)
			return nil, nil
		})
	s.AddTool(mcp.NewTool("refuse", mcp.WithDescription("reports a failure in its JSON")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return jsonResult(map[string]any{"success": false, "reason": "the gripper is empty"}), nil
		})
	s.AddTool(mcp.NewTool("broken", mcp.WithDescription("an IsError result")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("arm fault 17"), nil
		})
	s.AddTool(mcp.NewTool("observe", mcp.WithDescription("an observation with a camera image")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			img := mcp.NewImageContent(base64.StdEncoding.EncodeToString([]byte("PNGDATA")), "image/png")
			img.Meta = &mcp.Meta{AdditionalFields: map[string]any{"camera": "head"}}
			plain := mcp.NewImageContent(base64.StdEncoding.EncodeToString([]byte("RAW")), "image/png")
			return &mcp.CallToolResult{Content: []mcp.Content{
				mcp.NewTextContent(`{"summary":"kitchen","held":""}`), img, plain}}, nil
		})
	s.AddTool(mcp.NewTool("getenv", mcp.WithDescription("reports environment variables and the working directory"),
		mcp.WithString("name", mcp.Required())),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			v, ok := os.LookupEnv(r.GetString("name", ""))
			wd, _ := os.Getwd()
			return jsonResult(map[string]any{"value": v, "set": ok, "count": len(os.Environ()), "cwd": wd}), nil
		})
	s.AddTool(mcp.NewTool("spawn", mcp.WithDescription("starts a long-lived grandchild and reports pids")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			// An absolute path: the server runs with an allow-listed
			// environment that has no PATH.
			sleep := "/bin/sleep"
			if _, err := os.Stat(sleep); err != nil {
				sleep = "/usr/bin/sleep"
			}
			cmd := exec.Command(sleep, "300")
			if err := cmd.Start(); err != nil {
				return nil, fmt.Errorf("spawn: %w", err)
			}
			return jsonResult(map[string]any{"pid": os.Getpid(), "child": cmd.Process.Pid}), nil
		})
	if os.Getenv(BigResultsEnv) != "" {
		addBigResultTools(s)
	}
	if os.Getenv(SceneEnv) != "" {
		addSceneTools(s)
	}
	if p := os.Getenv(SchemaRefEnv); p != "" {
		addSchemaRefTools(s, p)
	}
	addHostileDefTools(s)
	return s
}
