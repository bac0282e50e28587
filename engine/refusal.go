package engine

import (
	"strconv"
	"strings"

	"github.com/thea-harness/thea/engine/model"
)

// refusedKept bounds the extra calls of one response the transcript keeps,
// each with its own refusal; refusedNameChars bounds a name in a refusal.
const (
	refusedKept      = 5
	refusedNameChars = 64
)

// refusal is the reason of an extra call's failure envelope (one tool call
// per turn): true whatever became of the first call.
// ran says whether the first call reached its tool; dropped, on the last
// extra call kept, counts the calls after it that the transcript does not
// hold.
func refusal(first, extra string, ran bool, dropped int) string {
	var b strings.Builder
	b.WriteString("not executed: one tool call per turn. ")
	if ran {
		b.WriteString("This turn ran the response's first call (" + oneLine(first, refusedNameChars) + "); ")
	} else {
		b.WriteString("This turn went to the response's first call (" + oneLine(first, refusedNameChars) + "), which did not run either (its result says why); ")
	}
	b.WriteString("call " + oneLine(extra, refusedNameChars) + " again in a later turn if it is still needed.")
	if dropped > 0 {
		b.WriteString(" The response's " + strconv.Itoa(dropped) + " calls after this one were not executed either.")
	}
	return b.String()
}

// refusedNote is the Task Notes line of a response's refused calls.
func refusedNote(extra []model.ToolCall, dropped int) string {
	var b strings.Builder
	n := len(extra) + dropped
	b.WriteString(strconv.Itoa(n))
	if n == 1 {
		b.WriteString(" more call in the response was not executed (one tool call per turn): ")
	} else {
		b.WriteString(" more calls in the response were not executed (one tool call per turn): ")
	}
	for i, c := range extra {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(oneLine(c.Name, refusedNameChars))
	}
	if dropped > 0 {
		b.WriteString(" and " + strconv.Itoa(dropped) + " more")
	}
	return b.String()
}
