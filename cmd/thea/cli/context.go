package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/internal/termesc"
	"github.com/thea-harness/thea/operator/trace"
	"github.com/thea-harness/thea/schema"
)

// newContextCmd is `thea context --spec FILE [--instruction TEXT] [--format
// text|json]`: the first request the acting model would receive, without
// calling it. The toolsets start (the observation is real).
func (a *App) newContextCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "context --spec FILE [--instruction TEXT] [--format text|json] [--offline]",
		Short: "Print the first request the acting model would receive (no model is called)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			specs := a.v.GetStringSlice(a.key(cmd, "spec"))
			if len(specs) == 0 {
				return usageError{errors.New("context needs --spec FILE")}
			}
			format := a.str(cmd, "format")
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("--format must be text or json, not %q", format)}
			}
			logger := a.logger(slog.LevelWarn)
			wiring, err := a.session(logger, nil)
			if err != nil {
				return err
			}
			spec, err := a.loadSpec(cmd.Context(), specs, wiring.Components)
			if err != nil {
				return err
			}
			spec.RunLog.Enabled = false
			offline := a.v.GetBool(a.key(cmd, "offline"))
			if offline {
				dropped := offlineSpec(spec, wiring.Components.Descriptors())
				if len(dropped) > 0 {
					fmt.Fprintf(a.Stderr, "offline: not started: %s (their tools, the observation and the clearance reading are absent below)\n", termesc.Escape(strings.Join(dropped, ", ")))
				}
			}
			h, err := a.newHarness(cmd.Context(), spec, wiring, sessionOptions{logger: logger})
			if err != nil {
				return a.failed("thea", err)
			}
			defer h.Close()
			p, err := h.Preview(cmd.Context(), a.str(cmd, "instruction"))
			if err != nil {
				return a.failed("thea", err)
			}
			if format == "json" {
				// The same JSON, with no raw bidi or C1 control left in
				// its strings: it is often read on a terminal too.
				b, err := json.MarshalIndent(map[string]any{"request": p.Request, "tokens": p.Tokens}, "", "  ")
				if err != nil {
					return fmt.Errorf("encoding the request: %w", err)
				}
				if _, err := a.Stdout.Write(append(termesc.EscapeJSON(b), '\n')); err != nil {
					return fmt.Errorf("writing the request: %w", err)
				}
				return nil
			}
			if _, err := io.WriteString(a.Stdout, trace.Preview(p)); err != nil {
				return fmt.Errorf("writing the request: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().StringSlice("spec", nil, "spec file(s): one or more .cue files, or one .yaml/.json file")
	cmd.Flags().String("instruction", "(the instruction)", "the task's instruction")
	cmd.Flags().String("format", "text", "text or json")
	cmd.Flags().Bool("offline", false, "start no back-end: only builtin tools are listed, and no observation is read")
	return cmd
}

// offlineSpec removes what needs a running back-end from a loaded spec (the
// toolsets whose kind is not in process, their contracts, the observation,
// clearance, readings and evidence tools) so `thea context --offline` starts nothing;
// it returns the toolsets it left out.
func offlineSpec(spec *schema.Spec, cat *schema.Descriptors) []string {
	var dropped []string
	for name, ts := range spec.Toolsets {
		if d, ok := cat.Lookup(schema.KindToolset, ts.Kind); ok && d.InProcess {
			continue
		}
		dropped = append(dropped, name)
		delete(spec.Toolsets, name)
	}
	slices.Sort(dropped)
	if len(dropped) == 0 {
		return nil
	}
	provided := map[string][]string{}
	for name, ts := range spec.Toolsets {
		if d, _ := cat.Lookup(schema.KindToolset, ts.Kind); d.Provides != nil {
			provided[name], _ = d.Provides(name, ts)
		}
	}
	idx := schema.NewToolIndex(provided)
	for ref := range spec.Tools {
		if _, _, r := idx.Resolve(ref); r != schema.Found {
			delete(spec.Tools, ref)
		}
	}
	spec.Observation.Tool = ""
	spec.Safety.ClearanceTool = ""
	spec.Safety.Readings = nil
	spec.Evaluator.Evidence = ""
	spec.Tests = nil
	return dropped
}
