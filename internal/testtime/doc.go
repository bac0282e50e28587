// Package testtime owns the one scale every test applies to a timeout, so a
// test waits long enough on a loaded 2-core machine under the race detector
// and never depends on the timing an idle machine gives.
package testtime
