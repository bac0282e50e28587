package serve

import (
	"context"
	"errors"
	"fmt"
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
	// Call is the call a confirmation asks about: tool, arguments, the
	// confirm hook.
	Call *engine.ConfirmCall `json:"call,omitempty"`
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
	errStopped    = errors.New("the task was stopped by the operator")
)

// Outcomes of a question: the first to happen settles it.
const (
	outcomeAnswered   = "answered"
	outcomeStopped    = "stopped"
	outcomeUnanswered = "unanswered"
)

// settled is how a question was resolved, kept so a late or losing
// answer is told what happened instead of being accepted.
type settled struct {
	kind, outcome, answer string
	long                  bool // the answer was longer than keepAnswerBytes and is not kept
}

// alreadySettled refuses an answer to a question that another answer, a
// stop or its timeout settled first.
type alreadySettled struct {
	id int
	settled
}

func (e *alreadySettled) Error() string {
	what := "question"
	if e.kind == KindConfirm {
		what = "confirmation"
	}
	switch {
	case e.outcome != outcomeAnswered:
		return fmt.Sprintf("%s %d was already resolved (%s): this answer was not taken", what, e.id, e.outcome)
	case e.kind == KindConfirm && e.answer == "yes":
		return fmt.Sprintf("confirmation %d was already answered: the call was allowed; this answer was not taken", e.id)
	case e.kind == KindConfirm:
		return fmt.Sprintf("confirmation %d was already answered: the call was blocked; this answer was not taken", e.id)
	}
	return fmt.Sprintf("question %d was already answered: this answer was not taken", e.id)
}

// keepSettled is how many resolved questions a late answer is told about;
// older ones are simply not pending. keepAnswerBytes bounds the answer
// text kept with each (at most 256 KiB in all).
const (
	keepSettled     = 256
	keepAnswerBytes = 1024
)

type parked struct {
	Pending
	// done is closed when the question is settled; the fields after it are
	// set once, under Channel.mu, before that.
	done    chan struct{}
	outcome string
	answer  string
	err     error
}

// Channel is the session's user channel when served over HTTP: Ask parks
// the question until a client answers it or ctx ends (the spec's
// user.timeout, a stop, shutdown). Notify needs no delivery of its own:
// notify_user's event is already on the stream.
type Channel struct {
	mu      sync.Mutex
	next    int
	pending map[int]*parked
	// settled remembers the last keepSettled resolved questions (oldest
	// first in order), so a late answer gets a refusal saying why.
	settled map[int]settled
	order   []int
	// post puts a server event on the running task's stream.
	post func(name string, v any)
	// images keeps the candidates' views and has the cameras' frames.
	images *imageStore
}

var _ engine.UserChannel = (*Channel)(nil)

func newChannel(post func(string, any), images *imageStore) *Channel {
	return &Channel{pending: map[int]*parked{}, settled: map[int]settled{}, post: post, images: images}
}

// Confirm answers a confirm hook at the server's confirm endpoint, never at
// the question endpoint (policies.Confirmer).
func (c *Channel) Confirm(ctx context.Context, q engine.Question) (string, error) {
	q.Kind = engine.QuestionConfirm
	return c.Ask(ctx, q)
}

// ChannelName names the server's confirm endpoint (the operator console or
// an API client) in the run log's confirmations.
func (c *Channel) ChannelName() string { return "console" }

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
		done: make(chan struct{})}
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

	// Whatever comes first under the lock settles the question: an answer
	// (Answer), a stop or shutdown (abortAll) or the end of ctx. So an
	// answer is accepted only while the question is still open, and the
	// answer accepted is the one returned.
	stop := context.AfterFunc(ctx, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.settleLocked(p, outcomeUnanswered, "", context.Cause(ctx))
	})
	defer stop()
	<-p.done
	c.images.forgetQuestion(p.ID)
	resolved := map[string]any{"id": p.ID, "kind": kind, "outcome": p.outcome}
	if p.err != nil {
		resolved["error"] = p.err.Error()
	}
	if kind == KindConfirm && p.outcome == outcomeAnswered {
		resolved["confirm"] = p.answer == "yes"
	}
	c.post("resolved", resolved)
	return p.answer, p.err
}

// settleLocked resolves p once: it leaves the pending list, is remembered
// as settled and its Ask returns. Later calls change nothing and report
// false. c.mu is held.
func (c *Channel) settleLocked(p *parked, outcome, answer string, err error) bool {
	if p.outcome != "" {
		return false
	}
	p.outcome, p.answer, p.err = outcome, answer, err
	delete(c.pending, p.ID)
	kept := settled{kind: p.Kind, outcome: outcome, answer: answer}
	if len(answer) > keepAnswerBytes {
		kept.answer, kept.long = "", true // whole or not at all: half a secret escapes redaction
	}
	c.settled[p.ID] = kept
	c.order = append(c.order, p.ID)
	if len(c.order) > keepSettled {
		delete(c.settled, c.order[0])
		c.order = c.order[1:]
	}
	close(p.done)
	return true
}

// Notify implements engine.UserChannel.
func (c *Channel) Notify(context.Context, string) error { return nil }

// Answer delivers an answer to pending question id of the given kind.
// Exactly one answer per question is accepted: one that comes after the
// question was answered, stopped or timed out gets an *alreadySettled.
func (c *Channel) Answer(id int, kind, answer string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.pending[id]; ok {
		if p.Kind != kind {
			return errWrongKind
		}
		c.settleLocked(p, outcomeAnswered, answer, nil) // pending: not yet settled
		return nil
	}
	if st, ok := c.settled[id]; ok {
		if st.kind != kind {
			return errWrongKind
		}
		return &alreadySettled{id: id, settled: st}
	}
	return errNotPending
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

// abortAll settles every pending question with err.
func (c *Channel) abortAll(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.pending {
		c.settleLocked(p, outcomeStopped, "", err)
	}
}

// answerRefused is the 409 body of an answer that was not taken: the
// question's outcome and, when it was answered, the answer that was
// (confirm for a confirmation, the redacted text of a question's answer of
// at most keepAnswerBytes).
type answerRefused struct {
	Error   string  `json:"error"`
	ID      int     `json:"id"`
	Kind    string  `json:"kind"`
	Outcome string  `json:"outcome"`
	Confirm *bool   `json:"confirm,omitempty"`
	Answer  *string `json:"answer,omitempty"`
}

func (s *Server) settledBody(e *alreadySettled) answerRefused {
	b := answerRefused{Error: e.Error(), ID: e.id, Kind: e.kind, Outcome: e.outcome}
	if e.outcome == outcomeAnswered {
		if e.kind == KindConfirm {
			allowed := e.answer == "yes"
			b.Confirm = &allowed
		} else if !e.long {
			shown := s.redactor().String(e.answer)
			b.Answer = &shown
		}
	}
	return b
}
