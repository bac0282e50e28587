// Package bodysuite is the body layer's fault suite (engine/body), a row per
// transport kind: each test drives a real back-end that misbehaves on request
// (a subprocess) through one kind's transport, started as the engine starts
// it, and checks every motion rule on every row. Its bare row is a minimal
// kind written in the test alone. It holds tests only.
package bodysuite
