package livecheck

import (
	"maps"
	"slices"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// checkEffective checks each live tool's effective contract as a session
// builds it (engine.ContractOf): a spec that writes physical: false for a
// tool the transport runs as a motion is warned about at that field (the
// transport wins), and a read (the observation, a safety reading, the
// evidence, a verifier) naming a tool that is physical is an error at the
// field that names it: the session would refuse to start.
func (c *checker) checkEffective(index schema.ToolIndex) {
	for _, name := range slices.Sorted(maps.Keys(c.byName)) {
		lt := c.byName[name]
		if path, msg := engine.ContractConflict(c.spec, lt.toolset, name, lt.declared); path != "" {
			c.warnf(path, "%s", msg)
		}
	}
	for _, r := range engine.ReadRefs(c.spec) {
		if lt := c.lookup(index, r.Ref); lt != nil {
			if why := engine.CheckRead(r, lt.contract); why != "" {
				c.errorf(r.Path, "%s", why)
			}
		}
	}
}

// readable is the live tool ref names, unless it is physical: a live check
// calls no tool that can move the robot.
func (c *checker) readable(index schema.ToolIndex, ref string) *liveTool {
	lt := c.lookup(index, ref)
	if lt == nil || lt.contract.Physical {
		return nil
	}
	return lt
}
