package main

import "github.com/spf13/cobra"

// addLaterCommands adds the policy, import and backup commands.
func addLaterCommands(root *cobra.Command, g *globals) {
	root.AddCommand(newPolicyCmd(g), newImportCmd(g), newBackupCmd(g), newRestoreCmd(g), newChangesCmd(g))
}
