// Package redact removes declared secrets from whatever leaves a session
// (events before any sink, model requests, memory writes): exact values
// (api_key_env, run_log.secret_env) and run_log.redact patterns, in strings
// and in numbers by their decimal text, keeping the structure.
package redact
