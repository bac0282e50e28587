package livecheck

import (
	"maps"
	"slices"

	"github.com/thea-harness/thea/schema"
)

// checkDescriptions reads what the model is given, the back-end's own
// description of each offered tool, for a tool the model is not offered:
// only here is the offered set known (an MCP server's tools are listed
// live), and only here are the back-ends' descriptions. Static validation
// checks the spec's own descriptions and system prompt.
func (c *checker) checkDescriptions(index schema.ToolIndex) {
	hidden := map[string]bool{}
	var offered []string
	for _, name := range slices.Sorted(maps.Keys(c.byName)) {
		if c.spec.ContractFor(c.byName[name].toolset, name).Hidden {
			hidden[name] = true
		} else {
			offered = append(offered, name)
		}
	}
	isHidden := func(ref string) bool {
		_, tool, r := index.Resolve(ref)
		return r == schema.Found && hidden[tool]
	}
	resolve := func(ref string) schema.Resolution {
		_, _, r := index.Resolve(ref)
		return r
	}
	for _, name := range offered {
		lt := c.byName[name]
		for _, m := range schema.UnofferedTools(lt.tool.Def().Description, isHidden, resolve) {
			c.warnf(c.descriptionPath(lt.toolset, name), "the back-end's description of %s, which the model reads, %s", name, schema.MentionMessage(m, offered))
		}
	}
}

// descriptionPath is where a warning about a back-end's description of a
// tool stands: at the contract's description the model reads joined to it,
// else at the contract, else at the toolset.
func (c *checker) descriptionPath(set, tool string) string {
	for _, key := range []string{tool, set + "." + tool} {
		if ct, ok := c.spec.Tools[key]; ok {
			if ct.Description != "" {
				return "tools." + key + ".description"
			}
			return "tools." + key
		}
	}
	return "toolsets." + set
}
