package chaos

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/thea-harness/thea/toolsets/internal/faultserver"
)

// Model faults: how the model server answers one decide request.
const (
	ModelOK        = ""
	Model500       = "500"       // one 500, then the answer (the retry recovers)
	Model429       = "429"       // one 429 with Retry-After, then the answer
	ModelErr       = "500x2"     // 500 on every attempt: the model call fails, the task ends
	ModelSlow      = "slow"      // answers after a delay within the timeout
	ModelStall     = "stall"     // the first attempt outlasts the timeout; the retry answers
	ModelTruncated = "truncated" // a 200 whose JSON body is cut short
	ModelUnknown   = "unknown"   // calls a tool that does not exist
	ModelTen       = "ten"       // ten tool calls in one answer
)

// Call is one tool call the model makes.
type Call struct {
	Tool  string // "move_base" (physical), "probe", or an unknown name
	Fault string // the fault server's fault argument
	Ms    int    // move_base's duration
	N     int    // the fault's size argument
}

// Turn is what the model answers to one decide request of a task: a fault,
// or calls (none: the final answer).
type Turn struct {
	Model string
	Calls []Call
}

// Task is one task of an episode; Observe is the fault server's observe
// mode during it ("" a good observation; "bad", "array", "types", "empty":
// observations that are not observations).
type Task struct {
	Observe string
	Turns   []Turn
}

// Schedule is one episode: its tasks, and whether the back-end declares a
// stop tool (else a motion that outlives its call is ended by a kill).
type Schedule struct {
	Seed     uint64
	StopTool bool
	Tasks    []Task
}

// choices are the weighted options of a schedule (an entry repeats to
// weigh it).
type choices struct {
	model, probe, motion, observe []string
}

func weights() choices {
	return choices{
		model: []string{ModelOK, ModelOK, ModelOK, ModelOK, ModelOK, ModelOK, ModelOK, ModelOK,
			Model500, Model429, ModelErr, ModelSlow, ModelStall, ModelTruncated, ModelUnknown, ModelTen},
		probe: []string{faultserver.FaultNone, faultserver.FaultNone, faultserver.FaultNone,
			faultserver.FaultCrash, faultserver.FaultHang, faultserver.FaultFreeze, faultserver.FaultGarbage,
			faultserver.FaultEscape, faultserver.FaultInject, faultserver.FaultSecret, faultserver.FaultError,
			faultserver.FaultSlow},
		motion: []string{faultserver.FaultNone, faultserver.FaultNone, faultserver.FaultNone,
			faultserver.FaultCrash, faultserver.FaultHang, faultserver.FaultFreeze, faultserver.FaultGarbage,
			faultserver.FaultSecret, faultserver.FaultEscape, "late"},
		observe: []string{"", "", "", "", "", "", "", "", "bad", "array", "types", "empty"},
	}
}

// Generate builds the schedule of seed: 1–3 tasks of 1–4 turns, each turn
// a model fault or one or two tool calls, each call a fault.
func Generate(seed uint64) Schedule {
	r := rand.New(rand.NewPCG(seed, 0x7468656163686173)) // "theachas"
	w := weights()
	pick := func(l []string) string { return l[r.IntN(len(l))] }
	s := Schedule{Seed: seed, StopTool: r.IntN(2) == 0}
	for range 1 + r.IntN(3) {
		task := Task{Observe: pick(w.observe)}
		for range 1 + r.IntN(4) {
			turn := Turn{Model: pick(w.model)}
			if turn.Model == ModelOK || turn.Model == Model500 || turn.Model == Model429 || turn.Model == ModelSlow || turn.Model == ModelStall {
				for range 1 + r.IntN(4)/3 {
					turn.Calls = append(turn.Calls, genCall(r, w, pick))
				}
			}
			task.Turns = append(task.Turns, turn)
		}
		task.Turns = append(task.Turns, Turn{}) // the final answer
		s.Tasks = append(s.Tasks, task)
	}
	return s
}

func genCall(r *rand.Rand, w choices, pick func([]string) string) Call {
	if r.IntN(2) == 0 {
		c := Call{Tool: "move_base", Fault: pick(w.motion), Ms: 1 + r.IntN(20)}
		if c.Fault == "late" { // outlives its timeout, answers later
			c.Fault, c.Ms = "", 150+r.IntN(100)
		}
		if c.Fault == faultserver.FaultGarbage {
			c.N = 1 + r.IntN(30)
		}
		return c
	}
	c := Call{Tool: "probe", Fault: pick(w.probe)}
	switch c.Fault {
	case faultserver.FaultGarbage:
		c.N = 1 + r.IntN(30)
	case faultserver.FaultSlow:
		c.N = r.IntN(40)
	}
	return c
}

// String is the schedule in one line per task, for a failure's report.
func (s Schedule) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d (stop tool %v)", s.Seed, s.StopTool)
	for i, t := range s.Tasks {
		fmt.Fprintf(&b, "\n  task %d:", i+1)
		if t.Observe != "" {
			fmt.Fprintf(&b, " [observe %s]", t.Observe)
		}
		for _, turn := range t.Turns {
			switch {
			case turn.Model != ModelOK && len(turn.Calls) == 0:
				fmt.Fprintf(&b, " [model %s]", turn.Model)
			case len(turn.Calls) == 0:
				b.WriteString(" [final]")
			default:
				b.WriteString(" [")
				if turn.Model != ModelOK {
					fmt.Fprintf(&b, "model %s; ", turn.Model)
				}
				for j, c := range turn.Calls {
					if j > 0 {
						b.WriteString(", ")
					}
					fmt.Fprintf(&b, "%s(%s ms=%d n=%d)", c.Tool, c.Fault, c.Ms, c.N)
				}
				b.WriteString("]")
			}
		}
	}
	return b.String()
}
