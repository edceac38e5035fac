package main

import "github.com/spf13/cobra"

// TODO(cmd helper): the generate command.
func newGenerateCommand(a *app) *cobra.Command {
	return &cobra.Command{Use: "generate", Short: "Build a sitemap set from URL lists, CSV and JSONL"}
}
