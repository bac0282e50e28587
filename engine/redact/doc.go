// Package redact removes declared secrets from whatever leaves a session
// (events before any sink, model requests, memory writes, start errors):
// exact values (every *_env variable the spec names) and run_log.redact
// patterns, in strings, in numbers by their decimal text and in raw JSON in
// every spelling a JSON reader decodes, keeping the structure; a secret of
// MinEncodedLen bytes or more also in its base64, percent and hex encodings.
package redact
