package engine

import (
	"fmt"
	"io"
)

// closeOwned releases the objects a session was handed (Options.Owned), the
// last first, as resources acquired in order are released: a later one may
// use an earlier one. Every one is closed even if another fails or panics;
// each failure is returned, naming its position and type.
func closeOwned(owned []io.Closer) []error {
	var errs []error
	for i := len(owned) - 1; i >= 0; i-- {
		if owned[i] == nil {
			continue
		}
		if err := closeOne(owned[i]); err != nil {
			errs = append(errs, fmt.Errorf("close owned resource %d (%T): %w", i, owned[i], err))
		}
	}
	return errs
}

// closeOne closes one resource; a panic is its error.
func closeOne(c io.Closer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panicked: %v", r)
		}
	}()
	return c.Close()
}
