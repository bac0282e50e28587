package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"reflect"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/thea-harness/thea/internal/simtools"
)

// Version is reported to MCP clients.
const Version = "0.1.0"

type navigateArgs struct {
	Target string `json:"target" jsonschema:"A furniture, object, drawer or room name from the map, e.g. table, mug, top_drawer, kitchen."`
}

type moveArgs struct {
	Direction string  `json:"direction" jsonschema:"Along the robot's heading: forward or backward."`
	DistanceM float64 `json:"distance_m" jsonschema:"Distance in metres, greater than 0."`
}

type rotateArgs struct {
	Degrees float64 `json:"degrees" jsonschema:"Angle to turn in place, positive turns left (counter-clockwise)."`
}

type pickArgs struct {
	ObjectName string `json:"object_name" jsonschema:"Name of a detected object."`
}

type placeArgs struct {
	ObjectName string `json:"object_name" jsonschema:"The held object."`
	Target     string `json:"target" jsonschema:"A furniture with a surface (relation on) or a drawer (relation in)."`
	Relation   string `json:"relation" jsonschema:"on or in."`
}

type drawerArgs struct {
	Name string `json:"name" jsonschema:"The drawer's name, e.g. top_drawer."`
}

type observeArgs struct {
	RunID string `json:"run_id,omitempty" jsonschema:"Optional run id (run-<n>) of an earlier motion or manipulation; echoed so the observation is evidence for that run."`
}

type clearanceArgs struct{}

// missing names an empty required argument, so the model reads "target:
// required" rather than a failure about an object called "".
func (a navigateArgs) missing() string { return firstEmpty("target", a.Target) }
func (a moveArgs) missing() string     { return firstEmpty("direction", a.Direction) }
func (a pickArgs) missing() string     { return firstEmpty("object_name", a.ObjectName) }
func (a placeArgs) missing() string {
	return firstEmpty("object_name", a.ObjectName, "target", a.Target, "relation", a.Relation)
}
func (a drawerArgs) missing() string { return firstEmpty("name", a.Name) }

func firstEmpty(pairs ...string) string {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == "" {
			return pairs[i]
		}
	}
	return ""
}

// NewServer builds an MCP server simulating w; its state is private to the
// server and every random outcome comes from seed.
func NewServer(w *World, seed uint64) *server.MCPServer {
	s := newSimulator(w, seed)
	srv := server.NewMCPServer("thea-sim", Version, server.WithRecovery(), server.WithToolCapabilities(false))
	add := func(t mcp.Tool, h server.ToolHandlerFunc) { srv.AddTool(t, h) }
	add(mcp.NewTool("navigate_to", mcp.WithDescription(descNavigate), mcp.WithInputSchema[navigateArgs]()),
		typed(s, func(a navigateArgs) result { return s.navigateTo(a.Target) }))
	add(mcp.NewTool("move_base", mcp.WithDescription(descMove), mcp.WithInputSchema[moveArgs]()),
		typed(s, func(a moveArgs) result { return s.moveBase(a.Direction, a.DistanceM) }))
	add(mcp.NewTool("rotate", mcp.WithDescription(descRotate), mcp.WithInputSchema[rotateArgs]()),
		typed(s, func(a rotateArgs) result { return s.rotate(a.Degrees) }))
	add(mcp.NewTool("pick_up", mcp.WithDescription(descPick), mcp.WithInputSchema[pickArgs]()),
		typed(s, func(a pickArgs) result { return s.pickUp(a.ObjectName) }))
	add(mcp.NewTool("place", mcp.WithDescription(descPlace), mcp.WithInputSchema[placeArgs]()),
		typed(s, func(a placeArgs) result { return s.place(a.ObjectName, a.Target, a.Relation) }))
	add(mcp.NewTool("open_drawer", mcp.WithDescription(descOpen), mcp.WithInputSchema[drawerArgs]()),
		typed(s, func(a drawerArgs) result { return s.setDrawer(a.Name, true) }))
	add(mcp.NewTool("close_drawer", mcp.WithDescription(descClose), mcp.WithInputSchema[drawerArgs]()),
		typed(s, func(a drawerArgs) result { return s.setDrawer(a.Name, false) }))
	add(mcp.NewTool("get_clearance", mcp.WithDescription(descClearance), mcp.WithInputSchema[clearanceArgs]()),
		typed(s, func(clearanceArgs) result {
			c := s.readClearance()
			return ok(result{"front": c["front"], "back": c["back"], "left": c["left"], "right": c["right"]})
		}))
	// stop is the deployment-owned interrupt path a spec declares for the
	// sim's toolset: every simulated motion completes within its own call,
	// so when stop is served nothing is moving; it says so.
	add(simtools.StopTool(descStop), typed(s, func(clearanceArgs) result { return simtools.Stopped() }))
	add(mcp.NewTool("observe", mcp.WithDescription(descObserve), mcp.WithInputSchema[observeArgs]()),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a, bad := simtools.Bind[observeArgs](req)
			if bad != nil {
				return simtools.Result(bad)
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.observeResult(a.RunID)
		})
	return srv
}

// typed adapts a simulator action to an MCP handler: arguments decoded into
// A (a bad or missing argument is a failure envelope naming it), one call at
// a time, the envelope as JSON text, IsError set on failure.
func typed[A any](s *simulator, act func(A) result) server.ToolHandlerFunc {
	return func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		a, bad := simtools.Bind[A](req)
		if bad != nil {
			return simtools.Result(bad)
		}
		if name := absentArg[A](req.GetArguments()); name != "" {
			return simtools.Result(fail("", "%s: required", name))
		}
		if m, has := any(a).(interface{ missing() string }); has && m.missing() != "" {
			return simtools.Result(fail("", "%s: required", m.missing()))
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		return simtools.Result(act(a))
	}
}

// absentArg names a required argument (a field of A without omitempty) the
// call did not send or sent as null: decoded, it would read as a zero value,
// so rotate without degrees would "succeed" by turning 0°.
func absentArg[A any](args map[string]any) string {
	t := reflect.TypeFor[A]()
	for i := range t.NumField() {
		name, opts, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" || strings.Contains(opts, "omitempty") {
			continue
		}
		if v, sent := args[name]; !sent || v == nil {
			return name
		}
	}
	return ""
}

// observeResult is the Observation JSON (with "success": true) followed by one
// PNG per camera, in camera order.
func (s *simulator) observeResult(runID string) (*mcp.CallToolResult, error) {
	if runID != "" {
		if !simtools.KnownRunID(runID, s.runs) {
			return simtools.Result(fail("", "unknown run_id %q: runs so far are run-1..run-%d", runID, s.runs))
		}
	}
	obs := s.observation(runID)
	b, err := json.Marshal(obs)
	if err != nil {
		return nil, fmt.Errorf("encode observation: %w", err)
	}
	var fields map[string]any
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, fmt.Errorf("encode observation: %w", err)
	}
	fields["success"] = true
	b, err = json.Marshal(fields)
	if err != nil {
		return nil, fmt.Errorf("encode observation: %w", err)
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(string(b))}}
	for _, c := range s.w.Robot.Cameras {
		png, err := s.renderPNG(c)
		if err != nil {
			return nil, fmt.Errorf("render %s: %w", c.Name, err)
		}
		res.Content = append(res.Content, simtools.Image(c.Name, png))
	}
	return res, nil
}

// ServeOptions configures Serve. A nil World loads WorldPath, or
// DefaultWorld when that is empty too; nil In/Out/ErrLog are the process's
// stdin, stdout and stderr.
type ServeOptions struct {
	World     *World
	WorldPath string
	Seed      uint64
	In        io.Reader
	Out       io.Writer
	ErrLog    io.Writer
}

// Serve runs the simulator as an MCP server over stdio until ctx ends or the
// input closes.
func Serve(ctx context.Context, opts ServeOptions) error {
	w := opts.World
	var err error
	switch {
	case w != nil:
	case opts.WorldPath != "":
		w, err = LoadWorld(ctx, opts.WorldPath)
	default:
		w, err = DefaultWorld(ctx)
	}
	if err != nil {
		return fmt.Errorf("sim serve: %w", err)
	}
	in, out, errLog := opts.In, opts.Out, opts.ErrLog
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	if errLog == nil {
		errLog = os.Stderr
	}
	stdio := server.NewStdioServer(NewServer(w, opts.Seed))
	stdio.SetErrorLogger(log.New(errLog, "thea-sim: ", log.LstdFlags))
	if err := stdio.Listen(ctx, in, out); err != nil && ctx.Err() == nil {
		return fmt.Errorf("sim serve: %w", err)
	}
	return nil
}
