// Package embodiments owns the Embodiment Profile's bundled .cue profiles and
// their rendering into Resident context.
package embodiments
