package mcpserve

import (
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// sessionRevisions are the protocol revisions /mcp offers. The stateless
// 2026-07-28 core is left out on purpose: it has no session, so the server
// could neither name a holder apart from another copy of the same client
// nor see it disconnect, and it has no server-initiated elicitation in the
// middle of a call (a confirm hook asks while the call waits).
var sessionRevisions = []string{mcp.ProtocolVersion20251125, mcp.ProtocolVersion20250618, mcp.ProtocolVersion20250326}

// HTTPHandler serves srv over streamable HTTP, for serve's /mcp: stateful
// sessions (each with an id a refusal can name, released by DELETE or
// after idle without a request), session revisions only, and mcp-go's
// DNS-rebinding check kept beside serve's own token and Host checks.
func HTTPHandler(srv *server.MCPServer, idle time.Duration) http.Handler {
	return server.NewStreamableHTTPServer(srv,
		server.WithStateful(true),
		server.WithStreamableHTTPProtocolVersions(sessionRevisions...),
		server.WithSessionIdleTTL(idle),
	)
}

// ServerOptions are what the server's safety needs of an MCPServer: the
// elicitation capability (confirmations), server-initiated requests kept
// for clients of the stateless revision over stdio (a bidirectional
// transport, where they still work), and the lease released when its
// holder's session ends.
func ServerOptions(lease *Lease) []server.ServerOption {
	hooks := &server.Hooks{}
	lease.ReleaseOnDisconnect(hooks)
	return []server.ServerOption{server.WithElicitation(), legacyRequests(), server.WithHooks(hooks)}
}

// legacyRequests keeps elicitation in the middle of a call for clients of
// the 2026-07-28 revision over stdio (the official Go SDK negotiates it):
// a confirm hook waits inside the engine's turn, which the revision's
// multi-round-trip requests cannot express without ending the call.
func legacyRequests() server.ServerOption {
	//lint:ignore SA1019 the replacement (InputRequestBuilder) needs the call to return and be retried; a confirm hook asks inside it
	return server.WithLegacyServerInitiatedRequests()
}
