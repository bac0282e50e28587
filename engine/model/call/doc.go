// Package call owns what every network model provider needs around one model
// call: the per-attempt timeout, retries with exponential backoff and jitter
// on 429, 5xx, timeouts and reset connections (honouring Retry-After), and the
// clear error when the retries run out. It works as the HTTP Doer handed to a
// langchaingo client, so the in-flight request is aborted at once on timeout
// or cancellation, and a per-call Trace (carried in the request context) lets
// an adapter rewrite the request body and read the failure. Endpoint is the
// part of such a provider's config every one has (model name, base URL, key
// variable, temperature, token limit), with its CUE.
package call
