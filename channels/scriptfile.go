package channels

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/thea-harness/thea/schema"
)

// The answers file of the script channel (user.script):
//
//	answers:
//	  - answer: top_drawer            # answers the next question, in order
//	  - match: "Allow"                # answers the first question containing "Allow"
//	    answer: "yes"
//
// It is read node by node rather than decoded into a struct, so every
// problem is reported at its line and column in words, never in Go types.

// ScriptProblem is one problem of an answers file, at its 1-based line and
// column (0 when the file as a whole is wrong).
type ScriptProblem struct {
	Line, Col int
	Message   string
}

func (p ScriptProblem) Error() string {
	if p.Line == 0 {
		return p.Message
	}
	return fmt.Sprintf("%d:%d: %s", p.Line, p.Col, p.Message)
}

// answerFields are the fields of one answer.
var answerFields = []string{"answer", "match"}

// yamlErrLine finds the line in a YAML parser message.
var yamlErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// ParseScript reads an answers file. It returns the answers, or every
// problem found, each at its position.
func ParseScript(src []byte) ([]Answer, []ScriptProblem) {
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(src)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, []ScriptProblem{{Line: 1, Col: 1, Message: "the file is empty: want answers: [{answer: ...}]"}}
		}
		if m := yamlErrLine.FindStringSubmatch(err.Error()); m != nil {
			line, _ := strconv.Atoi(m[1])
			return nil, []ScriptProblem{{Line: line, Col: 1, Message: "not valid YAML: " + m[2]}}
		}
		return nil, []ScriptProblem{{Line: 1, Col: 1, Message: "not valid YAML: " + err.Error()}}
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil, []ScriptProblem{{Line: 1, Col: 1, Message: "the file is empty: want answers: [{answer: ...}]"}}
	}
	var probs []ScriptProblem
	fail := func(n *yaml.Node, format string, a ...any) {
		probs = append(probs, ScriptProblem{Line: n.Line, Col: n.Column, Message: fmt.Sprintf(format, a...)})
	}
	if root.Kind != yaml.MappingNode {
		fail(root, "want a mapping with answers: [{answer: ...}], got %s", describeNode(root))
		return nil, probs
	}
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], deref(root.Content[i+1])
		if k.Value != "answers" {
			fail(k, "unknown field %q%s (the file has one field, answers)", k.Value, schema.Suggest(k.Value, []string{"answers"}))
			continue
		}
		list = v
	}
	if list == nil {
		if len(probs) == 0 {
			fail(root, "no answers: want answers: [{answer: ...}]")
		}
		return nil, probs
	}
	if list.Kind == yaml.ScalarNode && list.Tag == "!!null" {
		return nil, probs // answers: with nothing: no answers
	}
	if list.Kind != yaml.SequenceNode {
		fail(list, "answers: want a list of {answer: ..., match?: ...}, got %s", describeNode(list))
		return nil, probs
	}
	answers := make([]Answer, 0, len(list.Content))
	for i, item := range list.Content {
		a, ok := parseAnswer(deref(item), fmt.Sprintf("answers[%d]", i), fail)
		if ok {
			answers = append(answers, a)
		}
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return answers, nil
}

func parseAnswer(n *yaml.Node, path string, fail func(*yaml.Node, string, ...any)) (Answer, bool) {
	if n.Kind != yaml.MappingNode {
		fail(n, "%s: want {answer: ..., match?: ...}, got %s", path, describeNode(n))
		return Answer{}, false
	}
	var a Answer
	ok, seen := true, false
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], deref(n.Content[i+1])
		var dst *string
		switch k.Value {
		case "answer":
			dst, seen = &a.Answer, true
		case "match":
			dst = &a.Match
		default:
			fail(k, "%s: unknown field %q%s (an answer has answer and match)", path, k.Value, schema.Suggest(k.Value, answerFields))
			ok = false
			continue
		}
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			fail(v, "%s.%s: want text, got %s", path, k.Value, describeNode(v))
			ok = false
			continue
		}
		*dst = v.Value
	}
	if !seen && ok {
		fail(n, "%s: missing answer", path)
		ok = false
	}
	return a, ok
}

// deref follows a YAML alias (*name) to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

// describeNode names what a YAML node is, in words.
func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.AliasNode:
		return "an alias"
	}
	if n.Tag == "!!null" {
		return "nothing"
	}
	return fmt.Sprintf("%q", n.Value)
}
