package channels

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/testtime"
)

// helperEnv makes the test binary a small "thea run": instructions on stdin,
// one confirmation, then the next instruction. It prints what it got.
const helperEnv = "THEA_USER_CONFIRM_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		os.Exit(confirmHelper())
	}
	os.Exit(m.Run())
}

func confirmHelper() int {
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(20*time.Second))
	defer cancel()
	term := NewTerminal(os.Stdin, io.Discard)
	if first, err := term.Ask(ctx, engine.Question{Text: "instruction?"}); err != nil || first != "start" {
		fmt.Printf("first=%q err=%v\n", first, err)
		return 1
	}
	ans, err := term.Confirm(ctx, engine.Question{Text: "Move the base?", Choices: []string{"yes", "no"}})
	if err != nil {
		fmt.Printf("error=%v\n", err)
	} else {
		fmt.Printf("answer=%s\n", ans)
	}
	next, err := term.Ask(ctx, engine.Question{Text: "instruction?"})
	fmt.Printf("next=%s err=%v\n", next, err)
	return 0
}

// confirmRun runs the helper with instructions "start\nyes\n" piped on stdin.
// With a pty it is the helper's controlling terminal: beforeStart is typed on
// it before the confirmation is asked, answer after the prompt appears.
func confirmRun(t *testing.T, withTTY bool, typeAhead, answer string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no controlling terminal
	var master *os.File
	var prompted chan struct{}
	if withTTY {
		m, slave, err := pty.Open()
		if err != nil {
			t.Fatal(err)
		}
		master = m
		t.Cleanup(func() { _ = master.Close() })
		defer slave.Close()
		cmd.Stderr = slave
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 2}
		prompted = make(chan struct{})
		var once sync.Once
		go func() {
			r := bufio.NewReader(master)
			var seen strings.Builder
			for {
				b, err := r.ReadByte()
				if err != nil {
					return
				}
				seen.WriteByte(b)
				if strings.Contains(seen.String(), "! confirm: Move the base?") && strings.HasSuffix(seen.String(), "> ") {
					once.Do(func() { close(prompted) })
				}
			}
		}()
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if master != nil && typeAhead != "" {
		if _, err := io.WriteString(master, typeAhead); err != nil {
			t.Fatal(err)
		}
	}
	// The instruction stream: "start", then a "yes" meant as an instruction.
	if _, err := io.WriteString(stdin, "start\nyes\n"); err != nil {
		t.Fatal(err)
	}
	if master != nil {
		select {
		case <-prompted:
		case <-time.After(testtime.Scale(10 * time.Second)): // only keeps a broken test from hanging
			t.Fatalf("no prompt on the terminal; helper output %q", out.String())
		}
		if _, err := io.WriteString(master, answer); err != nil {
			t.Fatal(err)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper: %v: %s", err, out.String())
	}
	_ = stdin.Close()
	return out.String()
}

// A piped "yes" never confirms a call: with no controlling terminal the
// confirmation fails (the hook blocks) and the "yes" stays an instruction.
func TestPipedYesNeverConfirms(t *testing.T) {
	out := confirmRun(t, false, "", "")
	if !strings.Contains(out, "error=no controlling terminal") || !strings.Contains(out, "next=yes") {
		t.Fatalf("helper output %q", out)
	}
}

// With a controlling terminal the answer comes from it, whatever is piped:
// the terminal's "no" refuses although the instructions say "yes", a "yes"
// typed before the question is discarded, and a "yes" typed after it confirms.
func TestConfirmReadsTheControllingTerminal(t *testing.T) {
	if out := confirmRun(t, true, "yes\n", "no\n"); !strings.Contains(out, "answer=no\n") || !strings.Contains(out, "next=yes") {
		t.Fatalf("helper output %q", out)
	}
	if out := confirmRun(t, true, "", "yes\n"); !strings.Contains(out, "answer=yes\n") {
		t.Fatalf("helper output %q", out)
	}
}

func TestConfirmWithoutTTYFails(t *testing.T) {
	term := NewTerminal(strings.NewReader("yes\n"), io.Discard).WithTTY("/nonexistent/tty")
	if _, err := term.Confirm(t.Context(), engine.Question{Text: "?"}); err == nil || !strings.Contains(err.Error(), "never read as confirmations") {
		t.Fatalf("err = %v", err)
	}
	if got, err := term.Ask(t.Context(), engine.Question{Text: "?"}); err != nil || got != "yes" {
		t.Fatalf("the instruction was consumed: %q, %v", got, err)
	}
}
