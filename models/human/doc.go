// Package human owns the "human" model provider: a person at the terminal
// plays the model. Each turn shows the rendered context and the tools; the
// person picks a tool and types its arguments (checked against the tool's
// input schema, with a retry) or types a final answer.
package human
