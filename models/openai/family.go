package openai

import (
	"fmt"
	"strings"

	"github.com/thea-harness/thea/schema"
)

// A model family is a set of models that take the same request shape on this
// wire wherever they are served: OpenAI's reasoning models refuse max_tokens
// and any temperature but their default behind Azure, a router or a proxy
// just as on api.openai.com, so the rule follows the model's name, not the
// URL. A model no family claims gets the provider's defaults. The spec's
// model.wire overrides the table for a name it cannot recognise (an Azure
// deployment called "prod-chat").

// Token-limit fields.
const (
	fieldMaxTokens           = "max_tokens"
	fieldMaxCompletionTokens = "max_completion_tokens"
)

// family is one row of the table.
type family struct {
	name string
	// about names the models, for the manual (docs/models.md) and diagnostics.
	about string
	match func(id string) bool
	// tokenLimitField is the field max_tokens travels in; empty: the
	// provider's default.
	tokenLimitField string
	// noTemperature: the models accept only their default temperature, so
	// none is sent.
	noTemperature bool
	// defaultTemperature is sent when the spec sets none.
	defaultTemperature float64
}

// families is the table, most specific first; the last row claims every
// model.
func families() []family {
	return []family{
		{
			name: "openai_reasoning", about: "OpenAI's reasoning models (o1, o3, o4-mini, gpt-5…)",
			match: openAIReasoning, tokenLimitField: fieldMaxCompletionTokens, noTemperature: true,
		},
		{
			// Google: keep temperature at its default 1.0 on Gemini 3 (lower
			// values can loop or degrade reasoning). Its thought signatures
			// come back on every call they came with (see body.go).
			name: "gemini_3", about: "Gemini 3 models",
			match: func(id string) bool { return strings.HasPrefix(id, "gemini-3") }, defaultTemperature: 1,
		},
		{name: "standard", about: "every other model", match: func(string) bool { return true }},
	}
}

// familyNames lists the table's names, for messages.
func familyNames() []string {
	var out []string
	for _, f := range families() {
		out = append(out, f.name)
	}
	return out
}

// familyFor is the spec's wire.family if set, else the first row that
// claims the model's name.
func familyFor(cfg schema.Model) (family, error) {
	fs := families()
	if want := cfg.Wire.Family; want != "" {
		for _, f := range fs {
			if f.name == want {
				return f, nil
			}
		}
		return family{}, fmt.Errorf("unknown family %q: this provider knows %s", want, strings.Join(familyNames(), ", "))
	}
	id := modelID(cfg.Name)
	for _, f := range fs {
		if f.match(id) {
			return f, nil
		}
	}
	return fs[len(fs)-1], nil
}

// modelID is the bare model id of a name as a router, a proxy or a
// fine-tune writes it: lower case, without a route prefix
// ("openai/o4-mini", "models/gemini-3-pro-preview") or a fine-tune's wrapping
// ("ft:o4-mini-2025-04-16:acme::abc" is o4-mini-2025-04-16).
func modelID(name string) string {
	id := strings.ToLower(strings.TrimSpace(name))
	id = id[strings.LastIndex(id, "/")+1:]
	if rest, ok := strings.CutPrefix(id, "ft:"); ok {
		id, _, _ = strings.Cut(rest, ":")
	}
	return id
}

// openAIReasoning: the o-series (o1, o1-mini, o3, o3-pro, o4-mini, …) and
// gpt-5 with its variants.
func openAIReasoning(id string) bool {
	return strings.HasPrefix(id, "gpt-5") || len(id) >= 2 && id[0] == 'o' && id[1] >= '1' && id[1] <= '9'
}

// shape is how this model's requests look: decided once, at construction.
type shape struct {
	family          string
	tokenLimitField string
	// sendTemperature: temperature is sent with this value; otherwise the
	// field is left out.
	sendTemperature bool
	temperature     float64
	// forceTemperature: the spec asked for it (wire.temperature "send"), so
	// it is set in the body even where langchaingo would drop it.
	forceTemperature bool
}

// decideShape applies the spec's override, the model's family and the
// provider's default, in that order.
func decideShape(p provider, cfg schema.Model) (shape, error) {
	f, err := familyFor(cfg)
	if err != nil {
		return shape{}, fmt.Errorf("model.wire.family: %w", err)
	}
	s := shape{family: f.name, tokenLimitField: cfg.Wire.TokenLimitField}
	if s.tokenLimitField == "" {
		s.tokenLimitField = f.tokenLimitField
	}
	if s.tokenLimitField == "" {
		s.tokenLimitField = p.tokenLimitField(cfg)
	}
	switch cfg.Wire.Temperature {
	case "omit":
	case "send":
		s.sendTemperature, s.forceTemperature = true, true
	case "":
		s.sendTemperature = !f.noTemperature
	default:
		return shape{}, fmt.Errorf(`model.wire.temperature %q is neither "send" nor "omit"`, cfg.Wire.Temperature)
	}
	switch s.tokenLimitField {
	case fieldMaxTokens, fieldMaxCompletionTokens:
	default:
		return shape{}, fmt.Errorf("model.wire.token_limit_field %q is neither %s nor %s", s.tokenLimitField, fieldMaxTokens, fieldMaxCompletionTokens)
	}
	s.temperature = f.defaultTemperature
	if cfg.Temperature != nil {
		s.temperature = *cfg.Temperature
	}
	return s, nil
}
