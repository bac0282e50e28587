// Package faultserver is an MCP server that misbehaves like real robot
// back-ends do, for the motion-safety tests, the fault suite and the chaos
// run: motions that keep going after the client gave up, crashes mid-call,
// hung calls and frozen processes, garbage and escape codes on stdout,
// hostile results (escape codes, prompt injection, an echoed secret, 20 MB),
// a tool whose name carries escape codes, observations that are not
// observations, failing starts, and an optional stop tool. It records every
// motion in a directory shared across processes, so a test can prove that no
// two were ever active at once.
//
// Its tools and files are also the contract of the body layer's fault suite
// (toolsets/bodysuite): a transport's row there needs a fault server that keeps
// it over that transport — the tools move_base (ms, fault: freeze, gate,
// crash, hang), crash, probe (fault: crash, freeze, hang, escape, inject,
// error), observe (as ObserveFile says), pid, and a stop (cancel_motion here)
// whose stopped motion answers {"stopped": true}; the files of DirEnv's
// directory (ActiveDir, OverlapFile, LogFile with its start and stop lines,
// StartFile's modes exit, hang and slow, GateFile). Such a server records
// through Recorder, as this one does; the rosbridge row's is the fake
// rosbridge's fault contract (rosbridgetest, faultcontract.go). MainLines
// serves this server over a bare line protocol instead of MCP, for the
// suite's bare row (lines.go).
package faultserver
