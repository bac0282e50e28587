// Package cli wires the thea commands (cobra flags, viper THEA_* environment
// and config file) to the packages that do the work; it holds no logic beyond
// that.
package cli
