package cli

import (
	"os"
	"os/signal"
)

// pauseKey subscribes to the operator's pause key for an interactive
// `thea run`: Ctrl-Z (SIGTSTP) pauses the agent, not the process, while the
// session is open; stop gives the key back to the terminal.
func pauseKey() (keys <-chan os.Signal, stop func()) {
	sigs := pauseSignals()
	if len(sigs) == 0 {
		return nil, func() {}
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	return ch, func() { signal.Stop(ch) }
}
