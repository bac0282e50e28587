package mcpserve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/mark3labs/mcp-go/server"
)

// DefaultMaxLineBytes bounds one JSON-RPC message over stdio.
const DefaultMaxLineBytes = 4 << 20

// ServeStdio serves the face over stdio (one JSON-RPC message a line) until
// in ends or ctx is cancelled; a message over maxLine bytes ends the session
// with an error rather than growing without bound (0: DefaultMaxLineBytes).
// Nothing else may write to out: it is the protocol.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer, maxLine int, errLog io.Writer) error {
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	std := server.NewStdioServer(s.mcp)
	std.SetErrorLogger(log.New(errLog, "thea mcp: ", 0))
	err := std.Listen(ctx, &lineBound{r: bufio.NewReaderSize(in, 64<<10), max: maxLine}, out)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("serving MCP over stdio: %w", err)
	}
	return nil
}

// ErrLineTooLong ends a stdio session whose client sent a message over the
// bound.
var ErrLineTooLong = errors.New("a JSON-RPC message over the size bound")

// lineBound passes a line-oriented stream through and fails once a line
// grows past max bytes.
type lineBound struct {
	r   *bufio.Reader
	max int
	n   int // bytes of the current line so far
}

func (l *lineBound) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for _, c := range p[:n] {
		if c == '\n' {
			l.n = 0
			continue
		}
		l.n++
		if l.n > l.max {
			return 0, fmt.Errorf("%w (%d bytes)", ErrLineTooLong, l.max)
		}
	}
	return n, err
}
