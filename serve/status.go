package serve

import (
	"slices"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// Status is GET /v1/status.
type Status struct {
	// Instance names this run of the server: task ids start again at 1
	// when it restarts, so a client that sees it change starts afresh.
	Instance string `json:"instance"`
	Session  string `json:"session,omitempty"` // the spec's name
	// Spec is what the console shows of the spec beside its name.
	Spec        *SpecView    `json:"spec,omitempty"`
	State       string       `json:"state"` // idle | running | closing
	Task        *TaskView    `json:"task,omitempty"`
	Pending     []Pending    `json:"pending"`
	Tasks       []int        `json:"tasks"`                 // ids whose events are still readable
	Connections *Connections `json:"connections,omitempty"` // once serving
	// Health is the back-ends' health now; Cameras each camera's latest
	// frame; Notes the Task Notes last put on a task's stream.
	Health  *Health           `json:"health,omitempty"`
	Cameras []Frame           `json:"cameras"`
	Notes   *engine.TaskNotes `json:"notes,omitempty"`
	// Paused is the operator's pause in effect (see POST /v1/session/pause).
	Paused *runlog.Handover `json:"paused,omitempty"`
}

// SpecView is what the console shows of the spec: its description (the
// instruction field's hint), whether it keeps a Scene Graph (the console says
// so rather than showing nothing) and after how many turns a fact is stale,
// and the clearance sectors its map draws.
type SpecView struct {
	Description     string          `json:"description,omitempty"`
	SceneGraph      bool            `json:"scene_graph"`
	StaleAfterTurns int             `json:"stale_after_turns,omitempty"`
	Sectors         []schema.Sector `json:"sectors"`
}

// Connections is what the server holds against its connection bounds.
type Connections struct {
	Open     int `json:"open"`
	Unproven int `json:"unproven"` // not yet carried an authorized request
	Max      int `json:"max"`
	// ClosedAtBounds counts the connections closed (or refused) to keep
	// the bounds since the server started.
	ClosedAtBounds int64 `json:"closed_at_bounds"`
}

func (s *Server) status() Status {
	s.mu.Lock()
	st := Status{Instance: s.instance, State: "idle", Tasks: slices.Clone(s.order)}
	cur, lim, sess := s.current, s.conns, s.sess
	var last *taskRun
	if n := len(s.order); n > 0 {
		last = s.tasks[s.order[n-1]]
	}
	switch {
	case s.closing:
		st.State = "closing"
	case cur != nil:
		st.State = "running"
	}
	s.mu.Unlock()
	if last != nil {
		v := last.view()
		st.Task = &v
	}
	st.Pending = s.user.List()
	if lim != nil {
		open, unproven := lim.counts()
		st.Connections = &Connections{Open: open, Unproven: unproven, Max: lim.lim.total, ClosedAtBounds: lim.shed.Load()}
	}
	if st.Tasks == nil {
		st.Tasks = []int{}
	}
	if sess != nil {
		h := s.live.healthOf(sess, s.redactor())
		st.Health = &h
		st.Paused = s.pausedNow(sess)
		if sh, ok := sess.(specHolder); ok && sh.Spec() != nil {
			sp := sh.Spec()
			st.Session = sp.Name
			st.Spec = &SpecView{Description: sp.Description, SceneGraph: sp.SceneGraph.Enabled,
				StaleAfterTurns: sp.SceneGraph.StaleAfterTurns, Sectors: sp.Embodiment.Sectors()}
		}
	}
	st.Cameras = s.images.frames()
	st.Notes = s.live.lastNotes()
	return st
}
