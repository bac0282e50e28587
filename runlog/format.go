package runlog

// Format is the run log's format version, recorded in each task_start's
// EpisodeInfo. A release that records something its predecessor did not
// raises it, so a replay knows which absent fields an older Thea never
// wrote (thea test does not compare them):
//
//	1 (no version): confirmations only in the confirm action's wording
//	2: confirmations as data (Confirmation)
//	3: compared by thea test: a tool result's text (the harness's word to
//	   the model beside the result) and, within the spec's tolerances, the
//	   numbers of observations and tool results
const Format = FormatTolerant

// FormatTolerant is the first format replayed within tolerances, with
// what an older recording lacks left out of the comparison.
const FormatTolerant = 3
