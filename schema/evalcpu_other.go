//go:build !unix

package schema

import "time"

// evalCPU falls back to the time since start where CPU time is not read.
func evalCPU(start time.Time) time.Duration { return time.Since(start) }
