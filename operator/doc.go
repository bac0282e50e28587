// Package operator owns `thea run` at the operator's seat: a session's tasks
// started from the terminal one after another (batch) or as typed
// instructions (interactive), the commands typed while a task runs or when
// idle (/replan, /stop, /reset, /clear, /quit), and Ctrl-C as a safe stop.
package operator
