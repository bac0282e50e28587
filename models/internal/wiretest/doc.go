// Package wiretest is a recording HTTP server for provider adapter tests:
// it answers each request with the next scripted reply and keeps every
// request's path, headers and body for exact assertions; its strict
// handlers refuse what the real APIs refuse, in each provider's own shape.
package wiretest
