package chaos

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// Marker starts every task instruction of an episode: "chaos task K: ...".
// The model server finds the task a request belongs to by it, and the turn
// by the assistant messages after it, so a task the harness ended early
// (a model error) never puts the schedule out of step.
const Marker = "chaos task "

// Timings the model server uses; the spec's model timeout must lie between
// SlowDelay and StallDelay. A stalled answer ends as soon as the client gives
// up; StallDelay only bounds it.
const (
	SlowDelay  = 20 * time.Millisecond
	StallDelay = time.Minute
)

var taskRE = regexp.MustCompile(`chaos task (\d+):`)

// ModelServer speaks OpenAI's chat completions wire and answers each decide
// request as its schedule says.
type ModelServer struct {
	sched    Schedule
	mu       sync.Mutex
	attempts map[[2]int]int // per (task, turn): requests seen
	bodies   [][]byte       // kept only when Keep is set
	// Keep makes the server keep every request body (see Bodies).
	Keep bool
	// Errors are requests it could not place (a broken invariant).
	errors []string
}

// NewModelServer serves s.
func NewModelServer(s Schedule) *ModelServer {
	return &ModelServer{sched: s, attempts: map[[2]int]int{}}
}

// Attempts returns how many requests task's turn (both from 1) got.
func (m *ModelServer) Attempts(task, turn int) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.attempts[[2]int{task - 1, turn - 1}]
}

// Bodies returns the request bodies kept.
func (m *ModelServer) Bodies() [][]byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([][]byte(nil), m.bodies...)
}

// Errors returns what the server could not make sense of.
func (m *ModelServer) Errors() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.errors...)
}

func (m *ModelServer) fail(w http.ResponseWriter, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	m.mu.Lock()
	m.errors = append(m.errors, msg)
	m.mu.Unlock()
	http.Error(w, fmt.Sprintf(`{"error":{"message":%q}}`, msg), http.StatusBadRequest)
}

type chatRequest struct {
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

func (m *ModelServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		m.fail(w, "reading the request: %v", err)
		return
	}
	m.mu.Lock()
	if m.Keep {
		m.bodies = append(m.bodies, body)
	}
	m.mu.Unlock()
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		m.fail(w, "decoding the request: %v", err)
		return
	}
	// The task is the highest one named; its turn is the number of assistant
	// messages since the instruction first appeared (task notes repeat it).
	task, turn := -1, 0
	for _, msg := range req.Messages {
		for _, sm := range taskRE.FindAllSubmatch(msg.Content, -1) {
			if k, _ := strconv.Atoi(string(sm[1])); k-1 > task {
				task, turn = k-1, 0
			}
		}
		if msg.Role == "assistant" {
			turn++
		}
	}
	if task < 0 || task >= len(m.sched.Tasks) {
		m.fail(w, "request for no task of the schedule (task %d)", task+1)
		return
	}
	turns := m.sched.Tasks[task].Turns
	if turn >= len(turns) {
		m.fail(w, "task %d: request for turn %d of %d", task+1, turn+1, len(turns))
		return
	}
	m.mu.Lock()
	attempt := m.attempts[[2]int{task, turn}]
	m.attempts[[2]int{task, turn}]++
	m.mu.Unlock()
	m.answer(w, r, task, turn, attempt, turns[turn])
}

func (m *ModelServer) answer(w http.ResponseWriter, r *http.Request, task, turn, attempt int, t Turn) {
	first := attempt == 0
	switch {
	case t.Model == ModelErr || (t.Model == Model500 && first):
		writeJSON(w, http.StatusInternalServerError, `{"error":{"message":"chaos: internal error","type":"server_error"}}`)
		return
	case t.Model == Model429 && first:
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusTooManyRequests, `{"error":{"message":"chaos: rate limited","type":"rate_limit"}}`)
		return
	case t.Model == ModelStall && first:
		select {
		case <-time.After(StallDelay):
		case <-r.Context().Done():
		}
		writeJSON(w, http.StatusOK, `{"id":"late"}`)
		return
	case t.Model == ModelSlow:
		time.Sleep(SlowDelay)
	case t.Model == ModelTruncated:
		writeJSON(w, http.StatusOK, `{"id":"chatcmpl-cut","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"I will mo`)
		return
	}
	calls := t.Calls
	switch t.Model {
	case ModelUnknown:
		calls = []Call{{Tool: "fly_to_the_moon"}}
	case ModelTen:
		calls = nil
		for range 10 {
			calls = append(calls, Call{Tool: "probe"})
		}
	}
	var tc []any
	for i, c := range calls {
		args := map[string]any{}
		if c.Tool == "move_base" {
			args["ms"] = c.Ms
		}
		if c.Fault != "" {
			args["fault"] = c.Fault
		}
		if c.N != 0 {
			args["n"] = c.N
		}
		a, _ := json.Marshal(args)
		tc = append(tc, map[string]any{"id": fmt.Sprintf("call_%d_%d_%d_%d", task+1, turn+1, attempt, i), "type": "function",
			"function": map[string]any{"name": c.Tool, "arguments": string(a)}})
	}
	msg := map[string]any{"role": "assistant", "content": fmt.Sprintf("Task %d, turn %d.", task+1, turn+1)}
	if len(tc) > 0 {
		msg["tool_calls"] = tc
	} else {
		msg["content"] = fmt.Sprintf("Done with chaos task %d.", task+1)
	}
	out, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("chatcmpl-%d-%d", task+1, turn+1), "object": "chat.completion",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": 100, "completion_tokens": 10}})
	writeJSON(w, http.StatusOK, string(out))
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}
