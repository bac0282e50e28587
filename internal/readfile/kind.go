package readfile

import "fmt"

// Kind is a kind of file Thea reads. Each kind has a limit on one file and,
// for the line-by-line kinds, on one line; the manual's "Limits on what Thea
// reads" (docs/security.md) lists them.
type Kind uint8

// The kinds of file Thea reads.
const (
	// Spec is one spec file (.cue, .yaml, .json).
	Spec Kind = iota + 1
	// World is a simulator world file.
	World
	// Script is a script provider's file of model turns (model.script).
	Script
	// Answers is a scripted user's answers file (user.script).
	Answers
	// Skill is one SKILL.md.
	Skill
	// SkillResource is a file beside a SKILL.md that read_skill_resource
	// returns; it is cut at the limit (Head), not refused.
	SkillResource
	// Memory is MEMORY.md or one tool's tool_experience file.
	Memory
	// Episode is a recorded episode's events.jsonl (thea test, thea eval,
	// the replay provider, --record).
	Episode
	// RunLog is a run's events.jsonl as thea report reads it.
	RunLog
	// RunLogImage is one image a run log names, as thea report embeds it.
	RunLogImage
	// EvalResult is one shard's JSON result given to thea eval merge.
	EvalResult
	// LockOwner is the note beside a body lock naming the process holding it.
	LockOwner
)

// limits of one kind: its name in errors, the most bytes of one file and
// of one line (line-by-line kinds only).
type limits struct {
	name string
	max  int64
	line int
}

func (k Kind) limits() limits {
	switch k {
	case Spec:
		return limits{name: "spec file", max: 4 << 20}
	case World:
		return limits{name: "world file", max: 4 << 20}
	case Script:
		return limits{name: "model script", max: 16 << 20}
	case Answers:
		return limits{name: "answers file", max: 1 << 20}
	case Skill:
		return limits{name: "SKILL.md", max: 1 << 20}
	case SkillResource:
		return limits{name: "skill resource", max: 32 << 10}
	case Memory:
		return limits{name: "memory file", max: 4 << 20}
	case Episode:
		// A line holds one event: a tool result is at most max_result_bytes
		// (64 MiB at most) before JSON escaping.
		return limits{name: "episode events file", max: 256 << 20, line: 96 << 20}
	case RunLog:
		return limits{name: "run log", max: 256 << 20, line: 96 << 20}
	case RunLogImage:
		return limits{name: "run-log image", max: 8 << 20}
	case EvalResult:
		return limits{name: "eval result", max: 64 << 20}
	case LockOwner:
		return limits{name: "body lock owner note", max: 4 << 10}
	}
	return limits{name: fmt.Sprintf("file of unknown kind %d", uint8(k))}
}

// String names the kind as errors do ("spec file", "run log").
func (k Kind) String() string { return k.limits().name }

// Max is the most bytes Thea reads of one file of this kind.
func (k Kind) Max() int64 { return k.limits().max }

// MaxLine is the most bytes of one line of a line-by-line kind; 0 for a
// kind read whole.
func (k Kind) MaxLine() int { return k.limits().line }

// Kinds lists every kind, for documentation and tests.
func Kinds() []Kind {
	return []Kind{Spec, World, Script, Answers, Skill, SkillResource, Memory, Episode, RunLog, RunLogImage, EvalResult, LockOwner}
}
