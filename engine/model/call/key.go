package call

import (
	"fmt"
	"os"

	"github.com/thea-harness/thea/schema"
)

// APIKey reads the key from the environment variable cfg.APIKeyEnv names;
// nothing else in the environment is consulted. A named variable that is
// empty or unset is an error unless keyless is true (a local server that
// needs no key); so is a missing api_key_env when required is true.
func APIKey(provider string, cfg schema.Model, required, keyless bool) (string, error) {
	if cfg.APIKeyEnv == "" {
		if required {
			return "", fmt.Errorf("%s: model.api_key_env is required: name the environment variable that holds the API key", provider)
		}
		return "", nil
	}
	key := os.Getenv(cfg.APIKeyEnv)
	if key == "" && !keyless {
		return "", fmt.Errorf("%s: model.api_key_env names %s, but that environment variable is empty or unset", provider, cfg.APIKeyEnv)
	}
	return key, nil
}
