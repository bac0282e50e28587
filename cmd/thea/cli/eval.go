package cli

import "github.com/spf13/cobra"

func (a *App) newEvalCmd() *cobra.Command { return &cobra.Command{Use: "eval", Hidden: true} }
