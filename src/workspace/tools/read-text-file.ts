/**
 * `read_text_file` (the MCP filesystem server's): a file's UTF-8 text, or its first or
 * last N lines (`head`, `tail`; not both). Answers as the filesystem server does — the
 * text itself — with the path, size, sha256 and line count beside it.
 */
import { countLines } from "../select-lines.js";
import type { Workspace } from "../workspace.js";
import { readCheckedText, selectLines } from "./read-file.js";
import type { ToolOutput } from "./tool-output.js";

export interface ReadTextFileResult {
  success: true;
  /** The text (or the lines asked for). */
  content: string;
  path: string;
  bytes: number;
  sha256: string;
  total_lines: number;
}

export function readTextFileTool(ws: Workspace, args: { path: string; head?: number; tail?: number }): ToolOutput<ReadTextFileResult> {
  const c = ws.check(args.path, "read");
  const { text, bytes, sha256 } = readCheckedText(ws, c, "read_text_file");
  const content = selectLines(text, args);
  return {
    body: { success: true, content, path: c.rel, bytes, sha256, total_lines: countLines(text) },
    ledgerPath: c.rel,
    details: { bytes, sha256, ...(args.head !== undefined ? { head: args.head } : {}), ...(args.tail !== undefined ? { tail: args.tail } : {}) },
    text: content,
  };
}
