// Package testutil holds helpers shared by tests across packages: copying a
// bundled example so a test run never writes into the source tree.
package testutil
