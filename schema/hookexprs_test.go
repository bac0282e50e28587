package schema

// testRewrite and testClamp stand in for the policies package's rewrite and
// clamp configs (which import this package): action configs whose fields
// are expressions the rules compile.
type testRewrite map[string]string

func (r testRewrite) HookExprs() []HookExpr {
	var out []HookExpr
	for _, k := range sortedKeys(r) {
		out = append(out, HookExpr{Field: "rewrite." + k, Src: r[k], NonEmpty: true})
	}
	return out
}

func (r testRewrite) HookArgs() []HookArg {
	var out []HookArg
	for _, k := range sortedKeys(r) {
		out = append(out, HookArg{Field: "rewrite." + k, Arg: k})
	}
	return out
}

type testClamp struct{ Arg, Min, Max string }

func (c testClamp) HookExprs() []HookExpr {
	return []HookExpr{{Field: "clamp.min", Src: c.Min, Number: true}, {Field: "clamp.max", Src: c.Max, Number: true}}
}

func (c testClamp) HookArgs() []HookArg { return []HookArg{{Field: "clamp.arg", Arg: c.Arg}} }
