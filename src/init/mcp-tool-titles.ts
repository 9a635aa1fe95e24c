/**
 * The MCP tools as `.notarai/README.md` lists them: the names and titles of
 * the server's tool catalog (`src/mcp/tool-catalog.ts`), in its order and
 * groups. A copy, because `init` sits below the MCP server in the layers and
 * may not import it; test/init/notarai-readme-tools.test.ts fails (printing
 * the list to paste here) whenever the catalog changes and this does not.
 */
export interface McpToolGroup {
  /** What the group is for (a README bullet's lead-in). */
  purpose: string;
  tools: ReadonlyArray<readonly [name: string, title: string]>;
}

export const MCP_TOOL_GROUPS: readonly McpToolGroup[] = [
  {
    purpose: "reconciliation",
    tools: [
      ["list_affected_specs", "List affected specs"],
      ["get_spec_diff", "Get a spec's diff"],
      ["get_changed_artifacts", "Get changed artifacts"],
      ["mark_reconciled", "Mark files reconciled"],
      ["clear_cache", "Clear the reconciliation cache"],
      ["snapshot_state", "Snapshot reconciliation state"],
    ],
  },
  {
    purpose: "`.noma` documents",
    tools: [
      ["read_doc", "Read a Noma document"],
      ["list_ids", "List a document's ids"],
      ["validate_doc", "Validate a Noma document"],
      ["patch_block", "Patch a Noma document"],
    ],
  },
  {
    purpose: "the workspace (files, allowlisted commands, tests, build)",
    tools: [
      ["read_file", "Read a workspace file"],
      ["list_files", "List workspace files"],
      ["edit_file", "Edit a workspace file"],
      ["apply_patch", "Patch a workspace file by lines"],
      ["run_command", "Run an allowlisted command"],
      ["run_tests", "Run the project's tests"],
      ["build_workspace", "Build the project"],
      ["read_text_file", "Read a text file"],
      ["read_media_file", "Read a media file"],
      ["read_multiple_files", "Read several files"],
      ["list_directory", "List a directory"],
      ["list_directory_with_sizes", "List a directory with sizes"],
      ["directory_tree", "Show a directory tree"],
      ["search_files", "Find files by name"],
      ["search_text", "Search file contents"],
      ["get_file_info", "Get file information"],
      ["list_allowed_directories", "List allowed directories"],
      ["write_file", "Write a file"],
      ["append_file", "Append to a file"],
      ["create_directory", "Create a directory"],
      ["move_file", "Move a file or directory"],
    ],
  },
  {
    purpose: "the run loop (`noma-reconcile run`, read-only)",
    tools: [
      ["run_list", "List reconciliation runs"],
      ["run_status", "Show a reconciliation run"],
    ],
  },
];
