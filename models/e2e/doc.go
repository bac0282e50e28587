// Package e2e runs the bundled household episode through the network model
// adapters: the real engine, the simulator as a real MCP subprocess, and a
// local server speaking the provider's wire whose answers are the episode's
// scripted turns. It holds tests only.
package e2e
