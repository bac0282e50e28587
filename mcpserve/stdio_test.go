package mcpserve

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

// A message past the bound fails the stream instead of growing a buffer;
// lines within it pass unchanged, however many.
func TestLineBound(t *testing.T) {
	ok := strings.Repeat(strings.Repeat("x", 10)+"\n", 100)
	got, err := io.ReadAll(&lineBound{r: bufio.NewReader(strings.NewReader(ok)), max: 10})
	if err != nil || string(got) != ok {
		t.Fatalf("lines within the bound: err %v, %d of %d bytes", err, len(got), len(ok))
	}
	long := "short\n" + strings.Repeat("y", 11) + "\n"
	_, err = io.ReadAll(&lineBound{r: bufio.NewReader(strings.NewReader(long)), max: 10})
	if !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("a line of 11 bytes past a bound of 10: err %v, want ErrLineTooLong", err)
	}
}
