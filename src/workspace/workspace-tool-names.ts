/**
 * The workspace tool names, with no dependencies (the MCP server reads them at start-up,
 * before any schema is loaded): NOA's seven, then those named after the MCP filesystem
 * server's tools (`@modelcontextprotocol/server-filesystem`; its `read_file` and
 * `edit_file` are ours, taking both shapes) and our additions (`append_file`,
 * `search_text`).
 */
export const WORKSPACE_TOOL_NAMES = [
  "run_command",
  "edit_file",
  "apply_patch",
  "list_files",
  "read_file",
  "run_tests",
  "build_workspace",
  "read_text_file",
  "read_media_file",
  "read_multiple_files",
  "list_directory",
  "list_directory_with_sizes",
  "directory_tree",
  "search_files",
  "search_text",
  "get_file_info",
  "list_allowed_directories",
  "write_file",
  "append_file",
  "create_directory",
  "move_file",
] as const;
export type WorkspaceToolName = (typeof WORKSPACE_TOOL_NAMES)[number];

/**
 * The tools that change the work tree or run a command: their effects are recorded
 * before they happen (an intent line), and a read-only workspace refuses them.
 */
export const WORKSPACE_WRITE_TOOLS: readonly WorkspaceToolName[] = [
  "run_command",
  "edit_file",
  "apply_patch",
  "run_tests",
  "build_workspace",
  "write_file",
  "append_file",
  "create_directory",
  "move_file",
];

export function isWorkspaceTool(name: string): name is WorkspaceToolName {
  return (WORKSPACE_TOOL_NAMES as readonly string[]).includes(name);
}

export function isWorkspaceWriteTool(name: string): boolean {
  return (WORKSPACE_WRITE_TOOLS as readonly string[]).includes(name);
}
