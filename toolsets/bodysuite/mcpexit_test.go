package bodysuite_test

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thea-harness/thea/internal/testtime"
)

// theaEnv makes the test binary the thea command (cli.Main), so a test
// drives a real thea mcp process without building the binary.
const theaEnv = "THEA_BODYSUITE_THEA"

// The process of thea mcp told to end while a client's motion runs on a
// back-end that keeps moving: SIGTERM, SIGINT and the end of stdin each run
// the body layer's stop path (the back-end's stop tool is called) before
// the process exits.
func TestMCPExitRunsStopPath(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, how := range []string{"SIGTERM", "SIGINT", "stdin"} {
		t.Run(how, func(t *testing.T) {
			spec, faults := faceSpec(t, mcpTransport(), "ok")
			cmd := exec.Command(self, "mcp", "--spec", spec)
			cmd.Env = append(os.Environ(), theaEnv+"=1")
			// Our own pipes: closing stdin must be enough, with no signal
			// after it (the SDK's command transport sends SIGTERM after a
			// while).
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() {
				_ = cmd.Wait() // how it exited is not the point: that it did
				close(exited)
			}()
			t.Cleanup(func() {
				_ = cmd.Process.Kill()
				select {
				case <-exited:
				case <-time.After(testtime.Scale(10 * time.Second)):
					t.Error("thea mcp did not exit when killed")
				}
			})
			tr := &sdk.IOTransport{Reader: stdout, Writer: stdin}
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "exit-" + how, Version: "1.0"}, nil).Connect(t.Context(), tr, nil)
			if err != nil {
				t.Fatal(err)
			}
			go func() {
				_, _ = cs.CallTool(context.WithoutCancel(t.Context()), &sdk.CallToolParams{Name: "move_base", Arguments: map[string]any{"ms": 60000}})
			}()
			testtime.Wait(t, "the motion starting on the back-end", func() bool { return logLines(t, faults, "start") > 0 })
			switch how {
			case "SIGTERM":
				err = cmd.Process.Signal(syscall.SIGTERM)
			case "SIGINT":
				err = cmd.Process.Signal(os.Interrupt)
			case "stdin":
				err = stdin.Close()
			}
			if err != nil {
				t.Fatal(err)
			}
			testtime.Wait(t, "the stop reaching the back-end", func() bool { return logLines(t, faults, "stop") > 0 })
			select {
			case <-exited:
			case <-time.After(testtime.Scale(30 * time.Second)):
				t.Fatal("thea mcp did not exit after its stop path")
			}
		})
	}
}
