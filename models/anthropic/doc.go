// Package anthropic owns the "anthropic" model provider: the Messages API
// through langchaingo's client (transport, headers, settings, tools and
// response decoding). langchaingo's message conversion cannot express what
// the engine sends — it keeps only the first part of an assistant message
// (text + tool_use loses the call), tool_result content is a plain string (no
// image blocks), and cache_control is dropped on the system prompt and never
// set on tool results or assistant turns — so this adapter renders the
// `system` and `messages` of the request itself and hands them to the client
// through the call package's request rewrite. The rest of the request
// (model, max_tokens, temperature, tools) stays langchaingo's. The response
// is rewritten too before langchaingo decodes it: the raw tool_use inputs
// are kept, and blocks its decoder would fail on are dropped. The official
// anthropic-sdk-go would express all of it but adds some 17 MB to the
// binary and pulls in OpenTelemetry and credential-profile loading.
package anthropic
