package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/scaffold"
)

// newInitCmd: `thea init NAME [--body mobile|arm|fixed] [--dir DIR]`
// scaffolds a new robot's folder that validates and runs as created;
// `thea init --from-ros ws://HOST:9090 NAME` drafts its spec from the live
// ROS 2 graph instead.
func (a *App) newInitCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "init NAME [--body " + strings.Join(scaffold.Bodies, "|") + "] [--dir DIR] | init --from-ros ws://HOST:9090 NAME [--dir DIR] [--force]",
		Short: "Scaffold a new robot's folder, or draft its spec from a live ROS 2 graph",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := a.str(cmd, "dir")
			if dir == "" {
				dir = args[0]
			}
			if url := a.str(cmd, "from-ros"); url != "" {
				return a.initFromROS(cmd, url, args[0], dir)
			}
			if cmd.Flags().Changed("force") || cmd.Flags().Changed("token-env") {
				return usageError{errors.New("init: --force and --token-env go with --from-ros")}
			}
			files, err := scaffold.Create(scaffold.Options{Name: args[0], Body: a.str(cmd, "body"), Dir: dir})
			if err != nil {
				return usageError{fmt.Errorf("init: %w", err)}
			}
			fmt.Fprintf(a.Stdout, "created %s:\n", dir)
			for _, f := range files {
				fmt.Fprintf(a.Stdout, "  %s\n", f)
			}
			fmt.Fprintf(a.Stdout, "next: cd %s && thea validate spec.cue && thea run --spec spec.cue; README.md says what to fill in\n", dir)
			return nil
		},
	}
	cmd.Flags().String("body", "mobile", "body kind: "+strings.Join(scaffold.Bodies, ", "))
	cmd.Flags().String("dir", "", "folder to create (default: ./NAME); it must not exist or be empty (with --from-ros: it may exist)")
	cmd.Flags().String("from-ros", "", "draft the spec from the live ROS 2 graph behind this rosbridge_server (ws://HOST:9090), read through rosapi")
	cmd.Flags().Bool("force", false, "with --from-ros: replace the spec.cue and episode.yaml of an earlier draft")
	cmd.Flags().String("token-env", "", "with --from-ros: the variable holding a bearer token for a proxy in front of rosbridge")
	cmd.Flags().Duration("timeout", 30*time.Second, "with --from-ros: how long reading the graph may take")
	cmd.Flags().Duration("sample-window", scaffold.DefaultSampleWindow, "with --from-ros: how long to wait for a message of each topic the draft samples (TF frames, joint names, a Bool's value now)")
	return cmd
}

// initFromROS drafts a spec from the graph behind url.
func (a *App) initFromROS(cmd *cobra.Command, url, name, dir string) error {
	if cmd.Flags().Changed("body") {
		return usageError{errors.New("init: --body and --from-ros exclude each other (the graph says what the body has)")}
	}
	timeout := a.v.GetDuration(a.key(cmd, "timeout"))
	if timeout <= 0 {
		return usageError{fmt.Errorf("init: --timeout must be a positive duration")}
	}
	window := a.v.GetDuration(a.key(cmd, "sample-window"))
	if window <= 0 {
		return usageError{fmt.Errorf("init: --sample-window must be a positive duration")}
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
	defer cancel()
	d, err := scaffold.FromROS(ctx, scaffold.FromROSOptions{Name: name, URL: url, TokenEnv: a.str(cmd, "token-env"), Dir: dir,
		Force: a.v.GetBool(a.key(cmd, "force")), SampleWindow: window})
	if err != nil {
		return fmt.Errorf("init --from-ros: %w", err)
	}
	perceives := ""
	if len(d.Perception) > 0 {
		perceives = ", perception: " + strings.Join(d.Perception, ", ")
	}
	fmt.Fprintf(a.Stdout, "drafted %s from the graph at %s: %s, %s, %s%s; %s to check\n",
		dir, url, plural(d.Tools, "tool"), plural(d.Cameras, "camera"), plural(d.Readings, "safety reading"), perceives, plural(d.Review, "REVIEW line"))
	for _, f := range d.Files {
		fmt.Fprintf(a.Stdout, "  %s\n", f)
	}
	fmt.Fprintf(a.Stdout, "next: cd %s && thea validate --live spec.cue; review every REVIEW line before the robot drives unattended\n", dir)
	return nil
}
