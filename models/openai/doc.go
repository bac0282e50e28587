// Package openai owns the model providers that speak the OpenAI
// chat-completions wire through langchaingo: "openai", "ollama" (its /v1
// endpoint; langchaingo's native Ollama client drops tools), "google" (Gemini's
// OpenAI-compatible endpoint) and any OpenAI-compatible server named by
// base_url (vLLM, llama.cpp's server, LM Studio). Each provider is one
// descriptor (provider.go); the request's shape — the token-limit field, the
// temperature — follows the model's family wherever it is served
// (family.go), overridable by the spec's model.wire. It renders the engine's
// request on that wire — images as data: URL parts, images of tool results in
// a user message after the tool messages, tool names as the aliases
// providers accept — and works around langchaingo's habits on the encoded
// bodies (body.go): every setting is passed explicitly so OPENAI_* variables
// never leak in, nothing is streamed, and each tool call's extra_content
// (Gemini 3's thought signature), which langchaingo drops both ways, is kept
// from the response and put back on its call in every later request.
package openai
