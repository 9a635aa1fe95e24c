/**
 * The seven NOA tool names, with no dependencies (the MCP server reads them at start-up,
 * before any schema is loaded).
 */
export const WORKSPACE_TOOL_NAMES = ["run_command", "edit_file", "apply_patch", "list_files", "read_file", "run_tests", "build_workspace"] as const;
export type WorkspaceToolName = (typeof WORKSPACE_TOOL_NAMES)[number];

export function isWorkspaceTool(name: string): name is WorkspaceToolName {
  return (WORKSPACE_TOOL_NAMES as readonly string[]).includes(name);
}
