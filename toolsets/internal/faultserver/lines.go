package faultserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// The fault server over a bare line protocol instead of MCP, for the fault
// suite's bare row: a transport kind written in a test alone. One JSON
// object a line each way. A request is {"id": n, "op": "tools"}, {"id": n,
// "op": "call", "tool": …, "args": {…}} or {"id": n, "op": "ping"}; its
// answer carries the same id and {"tools": [{name, description,
// input_schema}]}, {"text": …, "error": bool}, or nothing more for a ping.
// The same tools and faults as over MCP; the garbage fault's lines are not
// answers (no id), so a client skips them.

// LineRequest is one request of the line protocol.
type LineRequest struct {
	ID   int             `json:"id"`
	Op   string          `json:"op"` // "tools" | "call" | "ping"
	Tool string          `json:"tool,omitempty"`
	Args json.RawMessage `json:"args,omitempty"`
}

// LineReply is one answer of the line protocol.
type LineReply struct {
	ID    *int       `json:"id"`
	Tools []LineTool `json:"tools,omitempty"`
	Text  string     `json:"text,omitempty"`
	Error bool       `json:"error,omitempty"`
}

// LineTool is one tool of a tools answer.
type LineTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// MainLines is Main over the line protocol: it serves stdin/stdout after
// dir's start mode and returns the process's exit status. Each call runs on
// its own goroutine, as MCP's workers do; the reading loop answers a ping
// itself, so a hung call never holds it, and a frozen process answers
// nothing. At the end of its input with a call hung, it exits.
func MainLines(dir string) int {
	out := &lockedWriter{w: os.Stdout}
	if code, serve := startUp(dir, out); !serve {
		return code
	}
	f := newServer(dir, out)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var req LineRequest
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "faultserver: a request that is not JSON:", err)
			continue
		}
		switch req.Op {
		case "ping":
			f.answer(LineReply{ID: &req.ID})
		case "tools":
			f.answer(LineReply{ID: &req.ID, Tools: f.lineTools()})
		case "call":
			go f.lineCall(req)
		default:
			f.answer(LineReply{ID: &req.ID, Text: "unknown op " + req.Op, Error: true})
		}
	}
	if f.hanging.Load() > 0 {
		os.Exit(0) // as over MCP: the hung worker would keep the process
	}
	return 0
}

// answer writes one reply line.
func (f *Server) answer(r LineReply) {
	b, err := json.Marshal(r)
	if err != nil {
		fmt.Fprintln(os.Stderr, "faultserver:", err)
		return
	}
	_, _ = f.out.Write(append(b, '\n'))
}

func (f *Server) lineTools() []LineTool {
	var tools []LineTool
	for name, st := range f.mcp.ListTools() {
		in, err := json.Marshal(st.Tool.InputSchema)
		if err != nil {
			fmt.Fprintln(os.Stderr, "faultserver:", err)
			continue
		}
		tools = append(tools, LineTool{Name: name, Description: st.Tool.Description, InputSchema: in})
	}
	slices.SortFunc(tools, func(a, b LineTool) int { return strings.Compare(a.Name, b.Name) })
	return tools
}

// lineCall runs one call through the MCP server's own handler.
func (f *Server) lineCall(req LineRequest) {
	st := f.mcp.GetTool(req.Tool)
	if st == nil {
		f.answer(LineReply{ID: &req.ID, Text: "no tool " + req.Tool, Error: true})
		return
	}
	var args map[string]any
	if len(req.Args) > 0 {
		if err := json.Unmarshal(req.Args, &args); err != nil {
			f.answer(LineReply{ID: &req.ID, Text: "arguments are not a JSON object: " + err.Error(), Error: true})
			return
		}
	}
	res, err := st.Handler(context.Background(), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: req.Tool, Arguments: args}})
	if err != nil {
		f.answer(LineReply{ID: &req.ID, Text: err.Error(), Error: true})
		return
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	f.answer(LineReply{ID: &req.ID, Text: strings.Join(texts, "\n"), Error: res.IsError})
}
