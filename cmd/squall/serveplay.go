package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/tui"
)

// defaultServeData keeps the server's store with Squall's data.
func defaultServeData() string {
	if d := tui.DataDir(); d != "" {
		return filepath.Join(d, "serve")
	}
	return "squall-serve"
}

// nodeName is the server's name among a cluster's: --node, or "squall"
// alone with the embedded NATS, or host and --listen with --nats (unique
// per running server, and the same after a restart, when the server takes
// its games back at once).
func (o serveOptions) nodeName() string {
	switch {
	case o.node != "":
		return o.node
	case o.natsURL == "":
		return "squall"
	}
	host, err := os.Hostname()
	if err != nil {
		host = "squall"
	}
	return host + "-" + o.ssh.Listen
}

// serveExportCommand writes the server's archive of finished games.
func serveExportCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "export --pgn FILE",
		Short: "Write every finished game of the server's archive to a PGN file",
		Long: "Writes the archive of finished games, in the order they ended, with [%clk] on every move.\n" +
			"Reads the embedded store of --data while the server is stopped, or a running server's NATS (--nats).",
		Args: argsBetween(0, 0, "no arguments"),
	}
	out := cmd.Flags().String("pgn", "", "the PGN `FILE` to write (required)")
	force := cmd.Flags().Bool("force", false, "replace the file if it exists")
	data := cmd.Flags().String("data", defaultServeData(), "the server's store, a directory `DIR`")
	url := cmd.Flags().String("nats", "", "read the store from the NATS server `URLS` instead")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if *out == "" {
			return usagef("want --pgn FILE")
		}
		f, err := createOutput(*out, *force)
		if err != nil {
			return err
		}
		defer f.Discard()
		st, err := store.Open(cmd.Context(), store.Options{Dir: *data, URL: *url})
		if errors.Is(err, store.ErrInUse) {
			// A running server holds its store: reading it beside the
			// server would risk it. Its NATS serves any number of readers.
			return fmt.Errorf("%w: stop it first, or export through its NATS with --nats", err)
		}
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		defer st.Close()
		n, err := st.ExportPGN(cmd.Context(), f)
		if err != nil {
			return err
		}
		if err := f.Commit(); err != nil {
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "%s: %d games\n", *out, n)
		return nil
	}
	return cmd
}
