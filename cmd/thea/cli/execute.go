package cli

import (
	"context"
	"fmt"
	"io"
)

// Execute runs the thea command line and returns the process exit code:
// 0 success, 1 a failed check or task, 2 a usage error.
func Execute(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	fmt.Fprintln(stderr, "thea: not yet wired")
	return 2
}
