package memory

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// consolidatePrompt is the system message of the task-end call. It names no
// tool: the tools come in the user message. THRESHOLD is replaced by the
// configured value.
const consolidatePrompt = `You keep the durable memory of a robot agent. A task has just ended. From its Task Notes and the evidence of its trace, propose what is worth remembering in later tasks, split by where it will be read again:
- scope "memory": cross-task knowledge: the user's preferences and conventions, facts about the place that stay true, lessons not tied to one tool. The agent sees it on every decision.
- scope "tool": a lesson about one tool: when it succeeds, how it fails, what to do before retrying. It is added to that tool's description. Give the tool's exact name from the list.

Rules:
- Keep only what will still be true and useful in a later task. Nothing about this task's progress.
- One fact per entry, one or two plain sentences that make sense without this task.
- A single evaluator verdict is a hypothesis. Turn it into a lesson only if the rest of the trace supports it (for example, what the agent did next worked).
- An answer the user gave that settles a preference belongs in memory, stated as the preference, so the same question is not asked again.
- Do not repeat what is already remembered.
- confidence is how sure you are, from 0 to 1, that the entry is true and will help. Entries below THRESHOLD are not kept.
- If nothing is worth keeping, return an empty list.

Answer with one JSON object and nothing else:
{"candidates":[{"scope":"memory","entry":"...","confidence":0.9},{"scope":"tool","tool":"TOOL_NAME","entry":"...","confidence":0.8}]}`

// mergePrompt is the system message of the call that shrinks a file grown
// past its bound. COUNT is replaced by the number of entries given.
const mergePrompt = `You keep a robot agent's memory file short. Below are the COUNT oldest and least confident entries of one file. Merge them into fewer entries: combine duplicates and near-duplicates, keep what is still useful, drop what is superseded or trivial. Never add a fact that is not in them. Each merged entry is one or two plain sentences with a confidence from 0 to 1, no higher than the entries it came from.

Answer with one JSON object and nothing else, with fewer than COUNT entries:
{"entries":[{"entry":"...","confidence":0.8}]}`

// Prompt bounds: the call's input stays small however long the task ran.
const (
	maxPromptLine     = 300
	maxTimelineLines  = 60
	maxEvidenceLines  = 80
	maxAnswers        = 20
	maxKnownChars     = 2000
	thresholdDecimals = 2
)

func consolidateSystem(threshold float64) string {
	return strings.Replace(consolidatePrompt, "THRESHOLD", strconv.FormatFloat(threshold, 'f', thresholdDecimals, 64), 1)
}

// consolidateUser renders the task for the call.
func consolidateUser(in Input, known string) string {
	var b strings.Builder
	b.WriteString("Tools (valid names for scope \"tool\"): ")
	if len(in.Tools) == 0 {
		b.WriteString("none")
	}
	b.WriteString(strings.Join(in.Tools, ", "))
	b.WriteString("\n\nTask Notes\nGoal: ")
	b.WriteString(clip(in.Notes.Goal, 4*maxPromptLine))
	b.WriteString("\nPhase: ")
	b.WriteString(clip(in.Notes.Phase, maxPromptLine))
	b.WriteString("\nTimeline:")
	writeLines(&b, in.Notes.Timeline, maxTimelineLines, "earlier events")
	b.WriteString("\n\nEvidence from the trace (tool results, verdicts, how the task ended):")
	writeLines(&b, in.Evidence, maxEvidenceLines, "earlier lines")
	if len(in.Answers) > 0 {
		b.WriteString("\n\nAnswers the user gave (each a candidate for memory if it settles a preference):")
		as := in.Answers
		if len(as) > maxAnswers {
			as = as[len(as)-maxAnswers:]
		}
		for _, a := range as {
			fmt.Fprintf(&b, "\n- Q: %s A: %s", clip(a.Question, maxPromptLine), clip(a.Answer, maxPromptLine))
		}
	}
	if known != "" {
		b.WriteString("\n\nAlready remembered:\n")
		b.WriteString(known)
	}
	return b.String()
}

// writeLines renders the last max lines, each clipped, saying how many were left out.
func writeLines(b *strings.Builder, lines []string, max int, what string) {
	if len(lines) == 0 {
		b.WriteString(" (none)")
		return
	}
	if len(lines) > max {
		fmt.Fprintf(b, "\n(%d %s not shown)", len(lines)-max, what)
		lines = lines[len(lines)-max:]
	}
	for _, l := range lines {
		b.WriteString("\n- ")
		b.WriteString(clip(strings.Join(strings.Fields(l), " "), maxPromptLine))
	}
}

func mergeSystem(n int) string { return strings.ReplaceAll(mergePrompt, "COUNT", strconv.Itoa(n)) }

func mergeUser(file string, es []Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "File: %s\nEntries (confidence, day written, text):", file)
	for i, e := range es {
		fmt.Fprintf(&b, "\n%d. [%.2f %s] %s", i+1, e.Confidence, e.Date.Format(dateLayout), e.Text)
	}
	return b.String()
}

// clip bounds s to n characters, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
