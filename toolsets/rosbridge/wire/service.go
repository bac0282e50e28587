package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// pendingCall waits for one service_response.
type pendingCall struct {
	service string
	done    chan callReply // buffered 1; written once
}

type callReply struct {
	values json.RawMessage
	err    error
}

func (p *pendingCall) finish(values json.RawMessage, err error) {
	p.done <- callReply{values, err}
}

type callFrame struct {
	Op      string   `json:"op"`
	ID      string   `json:"id"`
	Service string   `json:"service"`
	Args    any      `json:"args"`
	Timeout *float64 `json:"timeout,omitempty"`
}

// CallService calls a ROS service and returns its response message. args
// is the request (a struct or map encoded as a JSON object; nil for an
// empty request). The reply must carry the id and the exact service name
// sent. ctx's deadline is also sent as rosbridge's own timeout, so the
// server stops waiting when the caller does. A call is never repeated
// after a reconnect: services may act (a dock, a reset).
func (c *Client) CallService(ctx context.Context, service string, args any) (json.RawMessage, error) {
	if service == "" {
		return nil, fmt.Errorf("rosbridge call_service: no service name")
	}
	if args == nil {
		args = struct{}{}
	}
	f := callFrame{Op: "call_service", ID: c.newID("call_service", service), Service: service, Args: args}
	if dl, ok := ctx.Deadline(); ok {
		secs := time.Until(dl).Seconds()
		if secs <= 0 {
			// Past its deadline, ctx may not have ended yet: its timer
			// fires late on a loaded machine. Wait for it, so that a caller
			// asking ctx.Err() sees the timeout this error reports (the body
			// layer tells a timeout from another failure by ctx.Err()).
			<-ctx.Done()
			return nil, fmt.Errorf("rosbridge call %s: %w", service, ctx.Err())
		}
		f.Timeout = &secs
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("rosbridge call %s: %w", service, err)
	}
	_, gen, err := c.current()
	if err != nil {
		return nil, fmt.Errorf("rosbridge call %s: %w", service, err)
	}
	p := &pendingCall{service: service, done: make(chan callReply, 1)}
	c.mu.Lock()
	c.calls[f.ID] = p
	c.mu.Unlock()
	if err := c.write(gen, f); err != nil {
		c.forgetCall(f.ID)
		return nil, fmt.Errorf("rosbridge call %s: %w", service, err)
	}
	select {
	case r := <-p.done:
		if r.err != nil {
			return nil, fmt.Errorf("rosbridge call %s: %w", service, r.err)
		}
		return r.values, nil
	case <-ctx.Done():
		if c.forgetCall(f.ID) {
			c.mu.Lock()
			c.abandoned.add(f.ID)
			c.mu.Unlock()
			return nil, fmt.Errorf("rosbridge call %s: no response: %w", service, ctx.Err())
		}
		r := <-p.done // answered while we gave up: take the answer
		if r.err != nil {
			return nil, fmt.Errorf("rosbridge call %s: %w", service, r.err)
		}
		return r.values, nil
	}
}

// forgetCall removes a pending call; false if a reply already took it.
func (c *Client) forgetCall(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.calls[id]; !ok {
		return false
	}
	delete(c.calls, id)
	return true
}

// onServiceResponse completes the call a service_response answers.
func (c *Client) onServiceResponse(m inbound, size int) {
	id := idString(m.ID)
	c.mu.Lock()
	p := c.calls[id]
	if p != nil && p.service == m.Service {
		delete(c.calls, id)
	}
	late := p == nil && c.abandoned.has(id)
	c.mu.Unlock()
	switch {
	case late:
		c.stats.late.Add(1)
		return
	case p == nil:
		c.garbage(Garbage{Reason: GarbageUnmatched, Op: m.Op, Size: size, Detail: fmt.Sprintf("no call has id %q (service %q)", id, m.Service)})
		return
	case p.service != m.Service:
		c.garbage(Garbage{Reason: GarbageUnmatched, Op: m.Op, Size: size,
			Detail: fmt.Sprintf("id %q answers service %q, but %q was called", id, m.Service, p.service)})
		return
	}
	if m.Result == nil {
		p.finish(nil, fmt.Errorf("malformed service_response: no result field"))
		c.garbage(Garbage{Reason: GarbageBadReply, Op: m.Op, Size: size, Detail: "no result field"})
		return
	}
	if !*m.Result {
		var text string
		if json.Unmarshal(m.Values, &text) != nil {
			text = string(m.Values)
		}
		p.finish(nil, &ServiceError{Service: m.Service, Message: text})
		return
	}
	values := m.Values
	if len(values) == 0 || string(values) == "null" {
		values = json.RawMessage("{}") // rosbridge leaves values out of an empty response
	}
	p.finish(values, nil)
}

// idRing remembers the last ids given up on, so their late replies are
// told apart from garbage.
type idRing struct {
	ids  [256]string
	next int
	set  map[string]bool
}

func (r *idRing) add(id string) {
	if r.set == nil {
		r.set = map[string]bool{}
	}
	delete(r.set, r.ids[r.next])
	r.ids[r.next] = id
	r.set[id] = true
	r.next = (r.next + 1) % len(r.ids)
}

func (r *idRing) has(id string) bool { return r.set[id] }
