package main

import (
	"os"

	"github.com/thea-harness/thea/cmd/thea/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:]))
}
