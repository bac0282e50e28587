package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/coder/websocket"
)

// inbound is every field a frame from rosbridge may carry; which ones
// matter depends on op.
type inbound struct {
	Op      string          `json:"op"`
	ID      json.RawMessage `json:"id"` // a string, or a number in fragments
	Topic   string          `json:"topic"`
	Service string          `json:"service"`
	Action  string          `json:"action"`
	Msg     json.RawMessage `json:"msg"`
	Values  json.RawMessage `json:"values"`
	Result  *bool           `json:"result"`
	Status  json.RawMessage `json:"status"`
	Level   string          `json:"level"`
	Data    json.RawMessage `json:"data"`
	Num     json.RawMessage `json:"num"`
	Total   json.RawMessage `json:"total"`
}

// readLoop reads frames from conn until it fails, and returns why.
func (c *Client) readLoop(conn *websocket.Conn, gen uint64) error {
	asm := newReassembler(c.opts, c.garbage)
	for {
		typ, r, err := conn.Reader(c.life)
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		data, size, err := readBounded(r, c.opts.MaxFrameBytes)
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		c.stats.frames.Add(1)
		if data == nil {
			c.garbage(Garbage{Reason: GarbageTooLarge, Size: int(size),
				Detail: fmt.Sprintf("%d bytes, limit %d", size, c.opts.MaxFrameBytes)})
			continue
		}
		c.handleFrame(asm, typ == websocket.MessageBinary, data, gen)
	}
}

// readBounded reads one message of at most limit bytes. A larger one is
// read to its end without being kept: data is nil and size its length.
func readBounded(r io.Reader, limit int64) (data []byte, size int64, err error) {
	data, err = io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, 0, err
	}
	if int64(len(data)) <= limit {
		return data, int64(len(data)), nil
	}
	rest, err := io.Copy(io.Discard, r)
	if err != nil {
		return nil, 0, err
	}
	return nil, int64(len(data)) + rest, nil
}

// handleFrame decodes one frame and routes it. It never fails: what it
// cannot use is counted and reported.
func (c *Client) handleFrame(asm *reassembler, binary bool, data []byte, gen uint64) {
	if binary {
		c.garbage(Garbage{Reason: GarbageBinary, Size: len(data), Detail: sample(data)})
		return
	}
	m, ok := c.decode(data)
	if !ok {
		return
	}
	if m.Op == "fragment" {
		whole, done := asm.add(m, len(data))
		if !done {
			return
		}
		m, ok = c.decode(whole)
		if !ok {
			return
		}
		if m.Op == "fragment" {
			c.garbage(Garbage{Reason: GarbageBadFragment, Op: m.Op, Size: len(whole), Detail: "a fragment inside a fragmented message"})
			return
		}
		data = whole
	}
	c.dispatch(m, len(data), gen)
}

// decode parses a frame into an inbound message with an op, repairing bare
// NaN and Infinity tokens (rosbridge still writes them for float arrays).
func (c *Client) decode(data []byte) (inbound, bool) {
	var m inbound
	if !json.Valid(data) {
		fixed, n := repairNonFinite(data)
		if n == 0 || !json.Valid(fixed) {
			c.garbage(Garbage{Reason: GarbageInvalidJSON, Size: len(data), Detail: sample(data)})
			return m, false
		}
		c.stats.repaired.Add(1)
		data = fixed
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		c.garbage(Garbage{Reason: GarbageNotMessage, Size: len(data), Detail: "not a JSON object: " + sample(data)})
		return m, false
	}
	if err := json.Unmarshal(data, &m); err != nil {
		c.garbage(Garbage{Reason: GarbageNotMessage, Size: len(data), Detail: err.Error()})
		return m, false
	}
	if m.Op == "" {
		c.garbage(Garbage{Reason: GarbageNotMessage, Size: len(data), Detail: "no op: " + sample(data)})
		return m, false
	}
	return m, true
}

// dispatch routes a whole message to whoever waits for it.
func (c *Client) dispatch(m inbound, size int, gen uint64) {
	switch m.Op {
	case "publish":
		c.onPublish(m, size, gen)
	case "service_response":
		c.onServiceResponse(m, size)
	case "action_feedback":
		c.onActionFeedback(m, size)
	case "action_result":
		c.onActionResult(m, size)
	case "status":
		c.onStatus(m)
	case "png":
		c.garbage(Garbage{Reason: GarbagePNG, Op: m.Op, Size: size, Detail: "png compression is never requested by this client"})
	default:
		c.garbage(Garbage{Reason: GarbageUnknownOp, Op: m.Op, Size: size})
	}
}

// onStatus fails the call or goal a status error names, or hands the
// status to OnStatus.
func (c *Client) onStatus(m inbound) {
	id := idString(m.ID)
	var text string
	if json.Unmarshal(m.Msg, &text) != nil {
		text = string(m.Msg)
	}
	if id != "" && (m.Level == "error" || m.Level == "err") {
		c.mu.Lock()
		p := c.calls[id]
		if p != nil {
			delete(c.calls, id)
		}
		g := c.goals[id]
		if g != nil {
			delete(c.goals, id)
		}
		c.mu.Unlock()
		if p != nil {
			p.finish(nil, &ServiceError{Service: p.service, Message: text})
			return
		}
		if g != nil {
			g.finish(Result{Status: StatusUnknown, Values: m.Msg}, nil)
			return
		}
	}
	if c.opts.OnStatus != nil {
		c.opts.OnStatus(Status{Level: m.Level, Msg: text, ID: id})
	}
}

// garbage counts a refused frame and reports it.
func (c *Client) garbage(g Garbage) {
	c.stats.garbage.Add(1)
	if c.opts.OnGarbage != nil {
		c.opts.OnGarbage(g)
	}
}

// idString reads an id that is a JSON string or number; "" if absent.
func idString(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return ""
}
