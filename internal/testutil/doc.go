// Package testutil holds helpers shared by tests across packages: copying a
// bundled example so a test run never writes into the source tree, and
// finding a secret in text in any of its common encodings. It
// imports nothing of Thea, so any package's tests may use it.
package testutil
