// Package cli wires the thea commands (cobra flags, viper THEA_* environment
// and config file) to the packages that do the work. Beyond that wiring it
// holds only each command's own output: the text of `thea context`, the
// results of `thea test`, the JSON of `thea validate --json`. The operator's
// loop of `thea run` lives in package operator.
package cli
