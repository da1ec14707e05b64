package main

import (
	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/engine/epd"
)

// completeFlag has the shell complete cmd's flag name from values (each
// value may carry a description: cobra.CompletionWithDesc), and nothing
// else: no file names.
func completeFlag(cmd *cobra.Command, name string, values func() []string) {
	err := cmd.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return values(), cobra.ShellCompDirectiveNoFileComp
	})
	if err != nil {
		panic(err) // no such flag, or completed twice: a mistake in this program
	}
}

// completeSuite completes `squall suite`'s argument: a bundled suite's
// name, or an EPD file.
func completeSuite(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return epd.Bundled(), cobra.ShellCompDirectiveDefault
}
