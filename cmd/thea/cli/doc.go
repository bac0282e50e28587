// Package cli wires the thea commands (cobra flags, viper THEA_* environment
// and config file) to the packages that do the work. Beyond that wiring it
// holds only each command's own glue: the printed results of `thea test`,
// the JSON of `thea validate --json`, the spec `thea context --offline`
// trims. The operator's loop of `thea run` lives in package operator, the
// rendered context preview in operator/trace.
package cli
