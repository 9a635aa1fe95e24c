/**
 * `list_allowed_directories` (the MCP filesystem server's): the directories the tools
 * may use — the repository root, or, when the MCP client gave roots, the parts of the
 * repository inside them (possibly none) — as absolute paths, answered as it does.
 */
import type { Workspace } from "../workspace.js";
import type { ToolOutput } from "./tool-output.js";

export interface AllowedDirectoriesResult {
  success: true;
  content: string;
  directories: string[];
  /** The client's roots, when it gave some (file paths). */
  roots?: string[];
  read_only: boolean;
}

export function listAllowedDirectoriesTool(ws: Workspace): ToolOutput<AllowedDirectoriesResult> {
  const directories = ws.allowedAbsDirs();
  const content = directories.length > 0 ? `Allowed directories:\n${directories.join("\n")}` : `Allowed directories:\n(none: ${ws.outsideRootsReason()})`;
  return {
    body: { success: true, content, directories, ...(ws.roots !== undefined ? { roots: [...ws.roots] } : {}), read_only: ws.readOnly },
    ledgerPath: "",
    details: { directories: directories.length },
    text: content,
  };
}
