package scaffold

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"strings"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/redact"
)

// The --token-env credential reaches the graph's proxy, which may echo it
// in anything rosapi answers (a name, a type, an error). The draft is a
// file meant to be committed, so everything read from the graph, and every
// error init reports, passes through the redactor `validate --live` uses
// (engine/redact) before it is written or printed.

// tokenRedactor redacts the token in the spellings a proxy may echo it in:
// as sent, with its scheme, and in base64, hex and URL escaping (a JSON
// escape is covered already: redact reads JSON text as it decodes). A
// token that is not set redacts nothing.
func tokenRedactor(token string) *redact.Redactor {
	if token == "" {
		return nil
	}
	var spellings []string
	for _, s := range []string{token, "Bearer " + token} {
		b := []byte(s)
		spellings = append(spellings, s, strings.ToLower(s),
			base64.StdEncoding.EncodeToString(b), base64.RawStdEncoding.EncodeToString(b),
			base64.URLEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b),
			hex.EncodeToString(b), url.QueryEscape(s), url.PathEscape(s))
	}
	return redact.New(spellings, nil)
}

// redactError is err with the token redacted from its message.
func redactError(r *redact.Redactor, err error) error {
	return engine.RedactError(r, err)
}
