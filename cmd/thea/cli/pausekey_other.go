//go:build !unix

package cli

import "os"

// pauseSignals: no pause key here; /pause still pauses.
func pauseSignals() []os.Signal { return nil }
