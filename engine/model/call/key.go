package call

import (
	"fmt"
	"os"
)

// APIKey reads the key from the environment variable e.APIKeyEnv names;
// nothing else in the environment is consulted. A named variable that is
// empty or unset is an error unless keyless is true (a local server that
// needs no key); so is a missing api_key_env when required is true.
func APIKey(provider string, e Endpoint, required, keyless bool) (string, error) {
	if e.APIKeyEnv == "" {
		if required {
			return "", fmt.Errorf("%s: model.api_key_env is required: name the environment variable that holds the API key", provider)
		}
		return "", nil
	}
	key := os.Getenv(e.APIKeyEnv)
	if key == "" && !keyless {
		return "", fmt.Errorf("%s: model.api_key_env names %s, but that environment variable is empty or unset", provider, e.APIKeyEnv)
	}
	return key, nil
}
