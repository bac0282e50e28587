// Command thea validates robot specs and runs embodied agents from them.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/thea-harness/thea/cmd/thea/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Execute(ctx, os.Stdin, os.Stdout, os.Stderr, os.Args[1:])
	stop()
	os.Exit(code)
}
