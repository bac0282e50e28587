// Package memory owns the durable stores kept across tasks and sessions:
// MEMORY.md (cross-task knowledge) and tool_experience/<tool>.md (lessons
// about one tool). It writes them at task end by consolidation (one model
// call over the finished Task Notes and the trace's evidence), atomically
// and under a cross-process file lock; merges a file that grew past its
// bound; and reads them back as bounded summaries. It does not import
// engine: the engine passes its Task Notes in as plain data.
package memory
