package schema

import (
	"fmt"
	"time"
)

// Duration is a time.Duration written in a spec as a Go duration string ("30s").
type Duration time.Duration

// UnmarshalText parses a duration string; CUE and YAML decoding both use it.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("invalid duration %q: %w", b, err)
	}
	*d = Duration(v)
	return nil
}

// MarshalText writes the duration back as a string.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// D returns the value as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }
