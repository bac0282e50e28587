package serve

import (
	"errors"
	"fmt"
)

// The MCP face under thea serve --mcp: Config.MCP is mounted at /mcp behind
// the same token, Host checks, body and connection bounds as the API, and
// Config.Gate keeps a task of the API and an MCP client's task from ever
// running at once (the MCP face's lease, mcpserve.Lease).

// MCPPath is where Config.MCP is served.
const MCPPath = "/mcp"

// TaskGate is the body's one holder shared with another face of the
// session: Enter takes it for one task of the API (who and which task, so
// a refused MCP client is told), or refuses naming its holder.
type TaskGate interface {
	Enter(who, task string) (leave func(), err error)
}

// errHeld: another face of the session holds the body.
var errHeld = errors.New("another client of this session holds the robot")

// taskAPI names the API to the gate.
const taskAPI = "thea serve's task API"

// enterGate takes the gate for task id; leave is a no-op without a gate.
func (s *Server) enterGate(id int) (leave func(), err error) {
	if s.cfg.Gate == nil {
		return func() {}, nil
	}
	leave, err = s.cfg.Gate.Enter(taskAPI, fmt.Sprintf("task %d", id))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errHeld, err)
	}
	return leave, nil
}
