// Package report owns `thea report`: one self-contained HTML page of a task
// from its run directory (events.jsonl and the images beside it) — the
// timeline of turns, each turn's camera images inline, a chart of context
// size per lifetime with compaction points, token use and the final report.
// Everything read from the run is untrusted and escaped by html/template.
package report
