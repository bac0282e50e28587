package faultserver

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// DirEnv names the directory the server records motions in (shared by every
// server process of a test); ObserveFile in it selects the observe mode.
const DirEnv = "THEA_FAULT_DIR"

// Files in the directory.
const (
	ActiveDir   = "active"   // one file per motion in progress: <pid>-<n>
	OverlapFile = "overlaps" // a line per motion that began while another was active
	LogFile     = "log"      // start/end/stop lines
	ObserveFile = "observe"  // "bad" | "array" | "types" | "empty" | "arm"; absent: a good observation
)

// Server is one fault server process's state.
type Server struct {
	dir string
	mcp *server.MCPServer
	out io.Writer // stdout, shared with the server's replies
	rec *Recorder
	mu  sync.Mutex
	// hanging counts the calls that will never answer.
	hanging atomic.Int32
	// stop is closed by cancel_motion to end the motions in progress.
	stop chan struct{}
}

// newServer builds the server recording into dir; out is its stdout, shared
// by the replies and the garbage fault (see Main).
func newServer(dir string, out io.Writer) *Server {
	f := &Server{dir: dir, out: out, rec: &Recorder{Dir: dir}, stop: make(chan struct{})}
	s := server.NewMCPServer("thea-faultserver", "0.0.1")
	f.mcp = s
	s.AddTool(mcp.NewTool("move_base", mcp.WithDescription("a base motion that lasts ms milliseconds whatever the client does; fault: as probe's, and hang: until stopped"),
		mcp.WithNumber("ms", mcp.Required()), mcp.WithString("fault"), mcp.WithNumber("n")), f.move)
	s.AddTool(mcp.NewTool("cancel_motion", mcp.WithDescription("stops every motion in progress")), f.cancel)
	s.AddTool(mcp.NewTool("crash", mcp.WithDescription("begins a motion, then the process exits")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			f.begin()
			fmt.Fprintln(os.Stderr, "faultserver: crashing mid-motion")
			os.Exit(3)
			return nil, nil
		})
	s.AddTool(mcp.NewTool("observe", mcp.WithDescription("an observation, or garbage as the observe file says")), f.observe)
	s.AddTool(mcp.NewTool("pid", mcp.WithDescription("the server's process id")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprintf(`{"pid":%d}`, os.Getpid())), nil
		})
	f.addFaultTools()
	return f
}

func (f *Server) logf(format string, args ...any) { f.rec.Logf(format, args...) }

func (f *Server) begin() string { return f.rec.Begin() }

// move keeps moving for ms whatever the client does (notifications/cancelled
// included); only cancel_motion ends it early. Its fault argument: crash
// (mid-motion), hang (until stopped), gate (until GateFile exists), freeze, or a content fault of probe's.
func (f *Server) move(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	d := time.Duration(r.GetFloat("ms", 0)) * time.Millisecond
	fault, n := r.GetString("fault", ""), int(r.GetFloat("n", 0))
	f.mu.Lock()
	stop := f.stop
	f.mu.Unlock()
	me := f.begin()
	var wait <-chan time.Time
	switch fault {
	case FaultCrash:
		fmt.Fprintln(os.Stderr, "faultserver: crashing mid-motion")
		os.Exit(3)
	case FaultHang:
		// nil: only a stop ends it
	case FaultGate:
		wait = f.gate(stop)
	case FaultFreeze:
		_, _ = f.common(ctx, fault, n) // stops the process here, mid-motion
		wait = time.After(d)
	default:
		wait = time.After(d)
	}
	stopped := false
	select {
	case <-wait:
	case <-stop:
		stopped = true
	}
	f.rec.End(me, stopped)
	if fault != FaultFreeze {
		if res, done := f.common(ctx, fault, n); done {
			return res, nil
		}
	}
	return mcp.NewToolResultText(encode(map[string]any{"moved": true, "stopped": stopped})), nil
}

func (f *Server) gate(stop <-chan struct{}) <-chan time.Time { return f.rec.Gate(stop) }

func (f *Server) cancel(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	f.mu.Lock()
	close(f.stop)
	f.stop = make(chan struct{})
	f.mu.Unlock()
	f.logf("stop")
	return mcp.NewToolResultText(`{"stopped":true}`), nil
}

func (f *Server) observe(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	mode, _ := os.ReadFile(filepath.Join(f.dir, ObserveFile))
	switch strings.TrimSpace(string(mode)) {
	case "bad":
		return mcp.NewToolResultText("ERROR: camera offline, no data"), nil
	case "array":
		return mcp.NewToolResultText(`[1,2,3]`), nil
	case "types":
		return mcp.NewToolResultText(`{"summary": 5, "pose": "here"}`), nil
	case "empty":
		return mcp.NewToolResultText(`{}`), nil
	case "arm": // an arm's whole observation: no pose, no clearance
		return mcp.NewToolResultText(`{"joints":{"shoulder":0.1,"elbow":-1.2},"end_effector":{"frame":"base_link","x":0.4,"y":0,"z":0.3},"gripper":{"opening_m":0.08,"closed":false}}`), nil
	}
	return mcp.NewToolResultText(`{"summary":"hall","pose":{"x":0,"y":0,"theta_deg":0},"clearance":{"front":1,"back":1,"left":1,"right":1}}`), nil
}
