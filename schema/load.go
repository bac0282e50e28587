package schema

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/encoding/yaml"

	"github.com/thea-harness/thea/internal/readfile"
)

//go:embed cue/spec.cue
var schemaSource []byte

// schemaFile is the name the embedded schema's positions print with.
const schemaFile = "thea/schema/spec.cue"

// CUESchema returns the CUE source of the spec schema, narrowed to the
// components registered in c.
func CUESchema(c *Descriptors) []byte { return schemaFor(c, formCUE) }

// LoadOptions tunes Load.
type LoadOptions struct {
	// Profiles are bundled embodiment profiles (name → CUE struct body). A CUE
	// spec refers to one as `#embodiments.<name>`.
	Profiles map[string]string
	// Descriptors describe the build's components: they narrow the kinds a spec may
	// name and check each instance. Required.
	Descriptors *Descriptors
	// Context ends the reading of the spec's files (and of the files it
	// names) when done; nil never ends it.
	Context context.Context
	// Evaluator is the command that starts this binary as the evaluator
	// (ServeEvaluation). When set, the spec is evaluated there first, within
	// MaxEvalHeap and MaxEvalTime, and loaded here only if it stayed within
	// them: CUE's evaluation cannot be stopped in process. Without it a
	// hostile spec can take the process's memory and time.
	Evaluator []string
	// sources are the spec files' contents, read once by LoadBounded, so the
	// files evaluated within the bounds are the files loaded.
	sources map[string][]byte
}

// Load reads one or several .cue files (one package, unified) or one .yaml,
// .yml or .json file, checks it against the schema, compiles its rules and
// checks its cross-references. It returns the plan, or nil and every problem
// found, each at the user's file:line:col.
func Load(paths []string, opts LoadOptions) (*Spec, []Diagnostic) {
	l := &loader{pos: posMap{}, opts: opts, ctx: cuecontext.New(), unknownFields: map[string]bool{}}
	if opts.Descriptors == nil {
		return nil, []Diagnostic{{Message: "internal: schema.Load needs the build's component descriptors (LoadOptions.Descriptors)"}}
	}
	if l.opts.Context == nil {
		l.opts.Context = context.Background()
	}
	if len(opts.Evaluator) > 0 && len(paths) > 0 {
		sources, diags := evaluateBounded(paths, l.opts)
		if len(diags) > 0 {
			return nil, diags
		}
		l.opts.sources, l.opts.Evaluator = sources, nil
	}
	spec := l.load(paths)
	if spec == nil && !l.failed() {
		l.errorf(Pos{File: paths[0]}, "", "internal: the spec did not load, and no problem was found to report")
	}
	sortDiagnostics(l.diags)
	l.diags = dedupe(l.diags)
	if l.failed() {
		return nil, l.diags
	}
	spec.Warnings = l.diags
	return spec, nil
}

// failed reports whether any diagnostic is an error (not a warning).
func (l *loader) failed() bool {
	for _, d := range l.diags {
		if !d.Warning {
			return true
		}
	}
	return false
}

// loader carries one Load's state.
type loader struct {
	ctx   *cue.Context
	opts  LoadOptions
	paths []string
	files []*ast.File
	pos   posMap
	// unknownFields are the paths checkFields reported.
	unknownFields map[string]bool
	schema        cue.Value // #Spec
	root          cue.Value // the whole schema, its definitions at the top
	// selections are the components the sections name, by path, as
	// checkFields found them (see selectSchema).
	selections map[string]selection
	diags      []Diagnostic
	spec       *Spec               // the (possibly partial) plan being cross-checked
	lines      map[string][]string // user files' lines, for rule positions
}

func (l *loader) errorf(p Pos, path, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if path != "" {
		msg = path + ": " + msg
	}
	l.diags = append(l.diags, Diagnostic{Pos: p, Path: path, Message: msg})
}

func (l *loader) warnf(p Pos, path, format string, args ...any) {
	l.errorf(p, path, format, args...)
	l.diags[len(l.diags)-1].Warning = true
}

func (l *loader) load(paths []string) *Spec {
	if len(paths) == 0 {
		l.errorf(Pos{}, "", "no spec file given")
		return nil
	}
	l.paths = paths
	yamlMode, ok := l.classify(paths)
	if !ok {
		return nil
	}
	for _, p := range paths {
		l.parse(p, yamlMode)
	}
	if l.failed() {
		return nil
	}
	// The component names stay plain strings here: they are checked against
	// the registered descriptors in Go (crossCheck), with suggestions CUE cannot give.
	compiled := l.ctx.CompileBytes(schemaFor(l.opts.Descriptors, formLoad), cue.Filename(schemaFile))
	l.root = compiled
	l.schema = compiled.LookupPath(cue.ParsePath("#Spec"))
	if err := errors.Join(compiled.Err(), l.schema.Err()); err != nil {
		l.errorf(Pos{}, "", "internal: compiling the schema: %v", err)
		return nil
	}
	user, ok := l.build(yamlMode)
	if !ok {
		return nil
	}
	for i, f := range l.files {
		l.checkFields(l.schema, f.Decls, "", paths[i])
	}
	unified := l.schema.Unify(user)
	l.convertErrors(unified.Validate(cue.Concrete(true), cue.All()))
	l.checkRequired(l.schema, user, "")
	if l.failed() {
		// Still cross-check the sections that are valid on their own.
		partial, ok := partialSpec(l.ctx, unified)
		// Only sections valid on their own are in partial: they decode.
		l.decodeConfigs(partial, unified)
		l.crossCheck(partial, ok)
		return nil
	}
	var spec Spec
	if err := unified.Decode(&spec); err != nil {
		l.convertErrors(err)
		return nil
	}
	if !l.decodeConfigs(&spec, unified) {
		return nil
	}
	spec.Dir = filepath.Dir(paths[0])
	spec.Files = append([]string(nil), paths...)
	spec.pos = l.pos
	all := sections{}
	for _, f := range jsonFields(spec) {
		all[f] = true
	}
	rules, ok := l.crossCheck(&spec, all)
	if !ok {
		return nil
	}
	spec.Rules = rules
	spec.argPos = l.argPositions(&spec)
	return &spec
}

// classify decides between CUE (any number of .cue files) and one data file.
func (l *loader) classify(paths []string) (yamlMode, ok bool) {
	cueFiles := 0
	for _, p := range paths {
		switch strings.ToLower(filepath.Ext(p)) {
		case ".cue":
			cueFiles++
		case ".yaml", ".yml", ".json":
		default:
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				l.errorf(Pos{File: p}, "", "is a directory: name the spec's files (the .cue files to unify, or one .yaml/.json file)")
				return false, false
			}
			l.errorf(Pos{File: p, Line: 1, Col: 1}, "", "unsupported spec file type %q (want .cue, .yaml, .yml or .json)", filepath.Ext(p))
			return false, false
		}
		if _, err := os.Stat(p); err != nil {
			l.errorf(Pos{File: p}, "", "reading spec: %v", errors.Unwrap(err))
			return false, false
		}
	}
	if cueFiles == len(paths) {
		return false, true
	}
	if len(paths) > 1 {
		l.errorf(Pos{File: paths[0], Line: 1, Col: 1}, "", "a YAML or JSON spec is one file; several files must all be .cue")
		return false, false
	}
	return true, true
}

// parse reads and parses one file into l.files and records its positions.
func (l *loader) parse(path string, yamlMode bool) {
	src, ok := l.opts.sources[path]
	var err error
	if !ok {
		src, err = readfile.Read(l.opts.Context, path, readfile.Spec)
	}
	if err != nil {
		l.errorf(Pos{File: path}, "", "reading spec: %v", err)
		return
	}
	if len(bytes.TrimSpace(src)) == 0 && yamlMode { // an empty .cue file may join others
		l.errorf(Pos{File: path, Line: 1, Col: 1}, "", "the spec file is empty: a spec needs at least name, model and embodiment")
		return
	}
	var f *ast.File
	if yamlMode {
		if f, err = yaml.Extract(path, src); err == nil {
			f.Decls = dropExtensions(f.Decls)
		}
	} else {
		f, err = parser.ParseFile(path, src, parser.ParseComments)
	}
	if err != nil {
		l.parseError(path, err)
		return
	}
	if !l.checkSize(f, path) {
		return
	}
	l.files = append(l.files, f)
	l.pos.addFile(f, path)
}

// dropExtensions removes a YAML spec's top-level x- fields (x-defaults:
// &defaults {...}): they hold anchors for the rest of the file, whose
// aliases were expanded when it was read, and are no part of the spec.
func dropExtensions(decls []ast.Decl) []ast.Decl {
	out := decls[:0]
	for _, d := range decls {
		if f, ok := d.(*ast.Field); ok {
			if label, ok := fieldLabel(f.Label); ok && strings.HasPrefix(label, "x-") {
				continue
			}
		}
		out = append(out, d)
	}
	return out
}

// build evaluates the user's files, without the schema, as one value. CUE
// files are one package; bundled profiles join it as a synthetic file.
func (l *loader) build(yamlMode bool) (cue.Value, bool) {
	if yamlMode {
		v := l.ctx.BuildFile(l.files[0])
		if err := v.Err(); err != nil {
			l.convertErrors(err)
			return v, false
		}
		return v, true
	}
	pkg := l.files[0].PackageName()
	for i, f := range l.files[1:] {
		if f.PackageName() != pkg {
			l.errorf(Pos{File: l.paths[i+1], Line: 1, Col: 1}, "", "package %q differs from %q of %s: the files of a spec are one package", f.PackageName(), pkg, l.paths[0])
			return cue.Value{}, false
		}
	}
	if pkg == "" {
		// Files without a package clause do not share a scope; give them
		// one so #embodiments and cross-file references resolve.
		pkg = "spec"
		for _, f := range l.files {
			f.Decls = append([]ast.Decl{&ast.Package{Name: ast.NewIdent(pkg)}}, f.Decls...)
		}
	}
	inst := build.NewContext().NewInstance(filepath.Dir(l.paths[0]), nil)
	for _, f := range l.files {
		if err := inst.AddSyntax(f); err != nil {
			l.convertErrors(err)
			return cue.Value{}, false
		}
	}
	if len(l.opts.Profiles) > 0 {
		f, err := profilesFile(pkg, l.opts.Profiles)
		if err != nil {
			l.errorf(Pos{}, "", "bundled profiles: %v", err)
			return cue.Value{}, false
		}
		if err := inst.AddSyntax(f); err != nil {
			l.convertErrors(err)
			return cue.Value{}, false
		}
	}
	v := l.ctx.BuildInstance(inst)
	if err := v.Err(); err != nil {
		l.convertErrors(err)
		return v, false
	}
	return v, true
}

// profilesFile is the synthetic file defining #embodiments in the spec's package.
func profilesFile(pkg string, profiles map[string]string) (*ast.File, error) {
	names := make([]string, 0, len(profiles))
	for n := range profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	if pkg != "" {
		fmt.Fprintf(&b, "package %s\n\n", pkg)
	}
	b.WriteString("#embodiments: {\n")
	for _, n := range names {
		// Open ("..."): the schema's #Embodiment, which is closed, decides
		// which fields exist, so fields it adds (lock) get their defaults.
		fmt.Fprintf(&b, "%q: {\n%s\n...\n}\n", n, profiles[n])
	}
	b.WriteString("}\n")
	f, err := parser.ParseFile("embodiments/profiles.cue", b.String())
	if err != nil {
		return nil, fmt.Errorf("parsing: %w", err)
	}
	return f, nil
}

// jsonFields lists the json names of a struct's fields.
func jsonFields(v any) []string {
	t := reflect.TypeOf(v)
	var out []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// yamlLine finds the line in a YAML parser message ("spec.yaml:4: ...").
var yamlLine = regexp.MustCompile(`^(?:yaml: )?(?:line )?(\d+): (.*)$`)

// parseError reports a syntax error; YAML errors carry their line only in
// the message.
func (l *loader) parseError(path string, err error) {
	for _, e := range cueerrors.Errors(err) {
		if p := e.Position(); p.IsValid() {
			l.convertErrors(e)
			continue
		}
		msg := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(e.Error(), path), ":"))
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			l.errorf(Pos{File: path, Line: line, Col: 1}, "", "%s", m[2])
			continue
		}
		l.errorf(Pos{File: path, Line: 1, Col: 1}, "", "%s", msg)
	}
}
