//go:build unix

package cli

import (
	"os"
	"syscall"
)

// pauseSignals: the terminal's suspend key (Ctrl-Z) sends SIGTSTP.
func pauseSignals() []os.Signal { return []os.Signal{syscall.SIGTSTP} }
