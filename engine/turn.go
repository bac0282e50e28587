package engine

// Turn is the state of one turn as the stages see it. The engine owns it and
// exposes the steps of R3/R5 as methods; stages never reach around it.
// (Filled in by the engine implementation.)
type Turn struct {
	Number int
}
