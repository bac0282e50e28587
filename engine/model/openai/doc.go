// Package openai owns the model providers that speak the OpenAI
// chat-completions wire through langchaingo: "openai", "ollama" (its /v1
// endpoint; langchaingo's native Ollama client drops tools), "google" (Gemini's
// OpenAI-compatible endpoint) and any OpenAI-compatible server named by
// base_url (vLLM, llama.cpp's server, LM Studio). It renders the engine's
// request on that wire — images as data: URL parts, images of tool results in
// a user message after the tool messages — and works around langchaingo's
// habits: every setting is passed explicitly so OPENAI_* variables never leak
// in, and nothing is streamed.
package openai
