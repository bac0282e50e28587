// Package livecheck is `thea validate --live`: it starts every toolset of a
// spec, lists the tools the running back-ends really have, and checks every
// tool name and argument name the spec uses against them, and the
// observation and clearance tools' answers against the back-end contract;
// it lists the tools whose names travel to the model as aliases.
package livecheck
