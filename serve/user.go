package serve

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"

	"github.com/thea-harness/thea/engine"
)

// Pending is a question the session waits on, as clients see it. Kind keeps
// the two apart: a "query" (the model's query_user) is answered at
// /v1/questions/{id}/answer, a "confirm" (a confirm hook) at
// /v1/confirmations/{id}; neither endpoint answers the other kind.
type Pending struct {
	ID      int      `json:"id"`
	Kind    string   `json:"kind"` // query | confirm
	Text    string   `json:"text"`
	Choices []string `json:"choices,omitempty"`
	Refs    []string `json:"refs,omitempty"`
	// Candidates describe the refs: each one's Brief line and last view.
	Candidates []CandidateView `json:"candidates,omitempty"`
	// Call is the call a confirmation holds: tool, arguments, the hook
	// that asks.
	Call *engine.HeldCall `json:"call,omitempty"`
	// Frames are the cameras' latest frames when the question was asked:
	// what the robot saw.
	Frames []Frame `json:"frames,omitempty"`
}

// CandidateView is one candidate ref of a question.
type CandidateView struct {
	Ref   string    `json:"ref"`
	Line  string    `json:"line,omitempty"`
	Image *ImageRef `json:"image,omitempty"`
}

// Pending kinds.
const (
	KindQuery   = "query"
	KindConfirm = "confirm"
)

// Errors of answering a question.
var (
	errNotPending = errors.New("no such pending question")
	errWrongKind  = errors.New("wrong endpoint for this question's kind")
	errAnswered   = errors.New("the question is already answered")
	errStopped    = errors.New("the task was stopped by the operator")
)

type parked struct {
	Pending
	answer chan string // buffered 1: the first answer wins
	abort  chan error  // buffered 1: stop or shutdown
}

// Channel is the session's user channel when served over HTTP: Ask parks
// the question until a client answers it or ctx ends (the spec's
// user.timeout, a stop, shutdown). Notify needs no delivery of its own:
// notify_user's event is already on the stream.
type Channel struct {
	mu      sync.Mutex
	next    int
	pending map[int]*parked
	// post puts a server event on the running task's stream.
	post func(name string, v any)
	// images keeps the candidates' views and has the cameras' frames.
	images *imageStore
}

var _ engine.UserChannel = (*Channel)(nil)

func newChannel(post func(string, any), images *imageStore) *Channel {
	return &Channel{pending: map[int]*parked{}, post: post, images: images}
}

// Confirm answers a confirm hook at the server's confirm endpoint, never at
// the question endpoint (policies.Confirmer).
func (c *Channel) Confirm(ctx context.Context, q engine.Question) (string, error) {
	q.Kind = engine.QuestionConfirm
	return c.Ask(ctx, q)
}

// Ask implements engine.UserChannel.
func (c *Channel) Ask(ctx context.Context, q engine.Question) (string, error) {
	kind := KindQuery
	if q.Kind == engine.QuestionConfirm {
		kind = KindConfirm
	}
	c.mu.Lock()
	c.next++
	id := c.next
	c.mu.Unlock()
	p := &parked{Pending: Pending{ID: id, Kind: kind, Text: q.Text, Choices: q.Choices, Refs: q.Refs, Call: q.Call},
		answer: make(chan string, 1), abort: make(chan error, 1)}
	for n, cand := range q.Candidates {
		v := CandidateView{Ref: cand.Ref, Line: cand.Line}
		if cand.View != nil {
			ref := c.images.keepCandidate(id, n, *cand.View)
			v.Image = &ref
		}
		p.Candidates = append(p.Candidates, v)
	}
	p.Frames = c.images.frames()
	c.mu.Lock()
	c.pending[p.ID] = p
	c.mu.Unlock()
	c.post("pending", p.Pending)

	var ans string
	var err error
	outcome := "answered"
	select {
	case ans = <-p.answer:
	case err = <-p.abort:
		outcome = "stopped"
	case <-ctx.Done():
		err, outcome = context.Cause(ctx), "unanswered"
	}
	c.mu.Lock()
	delete(c.pending, p.ID)
	c.mu.Unlock()
	c.images.forgetQuestion(p.ID)
	resolved := map[string]any{"id": p.ID, "kind": kind, "outcome": outcome}
	if err != nil {
		resolved["error"] = err.Error()
	}
	c.post("resolved", resolved)
	return ans, err
}

// Notify implements engine.UserChannel.
func (c *Channel) Notify(context.Context, string) error { return nil }

// Answer delivers an answer to pending question id of the given kind.
func (c *Channel) Answer(id int, kind, answer string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pending[id]
	switch {
	case !ok:
		return errNotPending
	case p.Kind != kind:
		return errWrongKind
	}
	select {
	case p.answer <- answer:
		return nil
	default:
		return errAnswered
	}
}

// List returns the pending questions, oldest first.
func (c *Channel) List() []Pending {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Pending, 0, len(c.pending))
	for _, id := range slices.Sorted(maps.Keys(c.pending)) {
		out = append(out, c.pending[id].Pending)
	}
	return out
}

// abortAll unparks every pending question with err.
func (c *Channel) abortAll(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.pending {
		select {
		case p.abort <- err:
		default:
		}
	}
}
