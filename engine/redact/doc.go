// Package redact removes declared secrets from the events of a task before
// any sink sees them: exact values (api_key_env, run_log.secret_env) and
// run_log.redact patterns, in string values only, keeping the structure.
package redact
