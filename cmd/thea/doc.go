// Command thea validates robot specs and runs embodied agents from them:
// the process entry point; every command lives in package cli.
package main
