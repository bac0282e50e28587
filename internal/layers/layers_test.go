package layers

import (
	"errors"
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/thea-harness/thea/"

// layer is how high a package sits; a package imports only packages of lower
// layers, or of its own layer when it is of the same family (the first two
// path elements: the toolsets packages among themselves, the engine's core
// among itself).
type layer int

const (
	helpers  layer = iota // internal/...
	values                // world: the runtime values every layer shares
	language              // rules: the expr rule language, below the spec language
	spec                  // schema
	core                  // the engine and the packages it is built from
	impl                  // what the engine runs: stages, toolsets, policies, ...
	app                   // what a command does, and the one wiring package
	cli                   // cmd/...
)

// engineParts are the core packages the engine package is built from: none
// of them imports it. Every package under engine/ is core, and so is the
// run-log format (runlog), which the engine writes and readers read.
var engineParts = []string{"engine/lifetimes", "engine/model", "engine/model/call",
	"engine/memory", "engine/redact", "engine/scenegraph", "runlog"}

func layerOf(pkg string) layer {
	top, _, _ := strings.Cut(pkg, "/")
	switch top {
	case "internal":
		return helpers
	case "rules":
		return language
	case "world":
		return values
	case "schema":
		return spec
	case "engine", "runlog":
		return core
	case "stages", "toolsets", "policies", "skills", "embodiments", "models", "channels":
		return impl
	case "cmd":
		return cli
	}
	return app // components, episode, livecheck, operator (and its trace), report, scaffold, serve, examples
}

// family is what a package may import beside it on its own layer: the
// internal helpers, the toolsets and the embodiments among themselves, the
// engine's core among itself, a model provider only itself.
func family(pkg string) string {
	parts := strings.Split(pkg, "/")
	switch {
	case layerOf(pkg) == core:
		return "engine"
	case parts[0] == "internal", parts[0] == "toolsets", parts[0] == "embodiments":
		return parts[0]
	case parts[0] == "models" && len(parts) > 1:
		return strings.Join(parts[:2], "/") // one model provider
	}
	return parts[0]
}

// testOnly are packages that serve tests alone without saying so in their
// name: a misbehaving MCP server and the chaos run that drives it.
var testOnly = []string{"toolsets/internal/faultserver", "toolsets/internal/chaos"}

// isTestHelper reports whether pkg is a test fake or helper: its name says so
// (componentstest, rosbridgetest, testutil, testtime, testserver), it sits
// under a testdata folder, or it is listed in testOnly.
func isTestHelper(pkg string) bool {
	parts := strings.Split(pkg, "/")
	name := parts[len(parts)-1]
	return strings.HasSuffix(name, "test") || strings.HasPrefix(name, "test") ||
		slices.Contains(parts, "testdata") || slices.Contains(testOnly, pkg)
}

// linksFake reports whether from's production code may not import to
// because to is a test fake. Only tests, other test helpers and the fakes'
// own programs (cmd/thea-sim-<kind>, which `thea sim <kind>` runs) may
// link one: neither the thea binary nor a program that embeds Thea through
// components may.
func linksFake(from, to string) bool {
	return isTestHelper(to) && !isTestHelper(from) && !strings.HasPrefix(from, "cmd/thea-sim-")
}

// allowed reports whether from may import to. The engine's parts never
// import the engine: the context lifetimes (engine/lifetimes) hold the
// types they need themselves.
func allowed(from, to string) bool {
	lf, lt := layerOf(from), layerOf(to)
	switch {
	case to == "engine" && slices.Contains(engineParts, from):
		return false
	case lt < lf:
		return true
	case lt > lf:
		return false
	case lf == app:
		return true // applications may use each other (serve renders reports)
	}
	return family(from) == family(to)
}

// TestDependenciesPointOneWay walks every package of the module and checks
// each import of another of its packages: production imports against the
// layers, and every import of the internal helpers (tests included), which
// any package's tests may use and so must reach nothing above them.
func TestDependenciesPointOneWay(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		p, err := build.Default.ImportDir(path, build.ImportComment)
		var none *build.NoGoError
		if errors.As(err, &none) {
			return nil
		}
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		from := filepath.ToSlash(rel)
		checked++
		check := func(imports []string, what string) {
			for _, imp := range imports {
				to, ok := strings.CutPrefix(imp, module)
				if !ok || to == from {
					continue
				}
				if !allowed(from, to) {
					t.Errorf("%s %s %s: it runs back up the dependency direction", from, what, to)
				}
			}
		}
		check(p.Imports, "imports")
		for _, imp := range p.Imports {
			if to, ok := strings.CutPrefix(imp, module); ok && linksFake(from, to) {
				t.Errorf("%s imports %s, a test fake: only tests, test helpers and cmd/thea-sim-<kind> may link one", from, to)
			}
		}
		if layerOf(from) == helpers {
			check(p.TestImports, "imports in its tests")
			check(p.XTestImports, "imports in its tests")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 30 {
		t.Fatalf("checked only %d packages: the walk did not find the module", checked)
	}
}

// The rule itself, on the edges it exists to refuse.
func TestAllowed(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		want     bool
	}{
		{"engine", "schema", true},
		{"schema", "engine", false},
		{"schema", "rules", true},
		{"rules", "schema", false},
		{"rules", "internal/didyoumean", true},
		{"schema", "world", true},
		{"world", "schema", false},
		{"runlog", "world", true},
		{"world", "internal/anyjson", true},
		{"internal/testutil", "components", false},
		{"models/human", "internal/termesc", true},
		{"models/human", "operator/trace", false},
		{"models/human", "toolsets", false},
		{"engine", "models/openai", false},
		{"engine", "runlog", true},
		{"runlog", "engine", false},
		{"runlog", "engine/model", true},
		{"engine/lifetimes", "runlog", true},
		{"internal/termesc", "runlog", false},
		{"operator/trace", "runlog", true},
		{"report", "operator/trace", true},
		{"channels", "engine", true},
		{"engine", "channels", false},
		{"channels", "toolsets", false},
		{"engine/memory", "engine/model", true},
		{"engine/lifetimes", "engine", false},
		{"engine/memory", "engine", false},
		{"operator/trace", "engine", true},
		{"engine", "engine/lifetimes", true},
		{"engine/lifetimes", "engine/model", true},
		{"engine/lifetimes", "engine/redact", true},
		{"stages", "engine/lifetimes", true},
		{"engine", "stages", false},
		{"toolsets/rosbridge", "engine/body", true},
		{"engine/body", "engine", true},
		{"engine/body", "toolsets", false},
		{"stages", "policies", false},
		{"models/openai", "engine/model/call", true},
		{"models/openai", "models/anthropic", false},
		{"serve", "report", true},
		{"internal/outfile", "internal/readfile", true},
		{"components", "cmd/thea/cli", false},
		{"cmd/thea/cli", "components", true},
	} {
		if got := allowed(tc.from, tc.to); got != tc.want {
			t.Errorf("allowed(%s, %s) = %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
}

// The test-fake rule on the edges it exists to refuse, and the ones it
// lets through (tests are not checked: any test may use a fake).
func TestLinksFake(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		want     bool
	}{
		{"toolsets/rosbridge", "toolsets/rosbridge/rosbridgetest", true},
		{"components", "components/componentstest", true},
		{"models/openai", "models/internal/wiretest", true},
		{"toolsets", "toolsets/internal/faultserver", true},
		{"engine/body", "internal/testtime", true},
		{"serve", "internal/testutil", true},
		{"cmd/thea/cli", "toolsets/rosbridge/rosbridgetest", true},
		{"cmd/thea", "toolsets/internal/testserver", true},
		{"cmd/thea-sim-rosbridge", "toolsets/rosbridge/rosbridgetest", false},
		{"toolsets/rosbridge/rosbridgetest", "toolsets/internal/faultserver", false},
		{"models/internal/wiretest", "internal/testtime", false},
		{"toolsets/internal/chaos", "toolsets/internal/faultserver", false},
		{"internal/readfile/readfiletest", "internal/testtime", false},
	} {
		if got := linksFake(tc.from, tc.to); got != tc.want {
			t.Errorf("linksFake(%s, %s) = %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
}
