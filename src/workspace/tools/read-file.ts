/**
 * NOA `read_file`: the UTF-8 text of a file inside the repository (at most
 * MAX_FILE_BYTES), with its size and sha256; `head` / `tail` (the MCP filesystem
 * server's read_file takes them) keep only the first or last N lines. Refused:
 * directories, FIFOs and other non-files, bytes that are not UTF-8, `.git/`.
 */
import { createHash } from "node:crypto";
import { closeSync, constants } from "node:fs";
import { readAll } from "../archive-version.js";
import type { DirCache } from "../dir-cache.js";
import { openFileIn, openPinnedDir } from "../pinned-dir.js";
import { countLines, headLines, tailLines } from "../select-lines.js";
import { WorkspaceError } from "../workspace-error.js";
import { MAX_FILE_BYTES } from "../workspace-schemas.js";
import type { CheckedPath, Workspace } from "../workspace.js";
import type { ToolOutput } from "./tool-output.js";

export interface ReadFileResult {
  success: true;
  path: string;
  contents: string;
  bytes: number;
  sha256: string;
  /** With head or tail: how many lines the file has (contents holds only some). */
  total_lines?: number;
}

/** Read a checked path's bytes through pinned directories (`dirs`: those of a request reading many files). */
export function readCheckedFile(ws: Workspace, c: CheckedPath, limit: number, dirs?: DirCache): { bytes: Buffer; stat: import("node:fs").Stats } {
  if (c.rel === "") throw new WorkspaceError("not_a_file", `${JSON.stringify(c.given)}: the repository root is a directory (use list_files)`);
  const dir = dirs !== undefined ? dirs.get(c.dir) : openPinnedDir(ws.root, c.dir);
  try {
    const { fd, stat } = openFileIn(dir, c.name, constants.O_RDONLY);
    try {
      if (stat.isDirectory()) throw new WorkspaceError("not_a_file", `${c.rel}: is a directory (use list_files)`);
      if (!stat.isFile()) throw new WorkspaceError("not_a_file", `${c.rel}: not a regular file`);
      if (stat.size > limit) throw new WorkspaceError("too_large", `${c.rel}: ${stat.size} bytes, more than the ${limit} a request may read`);
      return { bytes: readAll(fd, stat.size), stat };
    } finally {
      closeSync(fd);
    }
  } finally {
    if (dirs === undefined) dir.close();
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A checked file's text (refused when not UTF-8) and its hash. */
export function readCheckedText(ws: Workspace, c: CheckedPath, tool: string, dirs?: DirCache): { text: string; bytes: number; sha256: string } {
  const { bytes } = readCheckedFile(ws, c, MAX_FILE_BYTES, dirs);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new WorkspaceError("not_utf8", `${c.rel}: not UTF-8 text (${tool} returns text only; read_media_file returns any file, base64)`);
  }
  return { text, bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/** `head` or `tail` lines of `text` (neither: all of it). */
export function selectLines(text: string, args: { head?: number; tail?: number }): string {
  if (args.head !== undefined && args.tail !== undefined)
    throw new WorkspaceError("invalid_arguments", "head and tail cannot both be given: ask for the first N lines or the last N");
  if (args.head !== undefined) return headLines(text, args.head);
  if (args.tail !== undefined) return tailLines(text, args.tail);
  return text;
}

export function readFileTool(ws: Workspace, args: { path: string; head?: number; tail?: number }): ToolOutput<ReadFileResult> {
  const c = ws.check(args.path, "read");
  const { text, bytes, sha256 } = readCheckedText(ws, c, "read_file");
  const contents = selectLines(text, args);
  const partial = args.head !== undefined || args.tail !== undefined;
  const total = partial ? { total_lines: countLines(text) } : {};
  return {
    body: { success: true, path: c.rel, contents, bytes, sha256, ...total },
    ledgerPath: c.rel,
    details: { bytes, sha256, ...(args.head !== undefined ? { head: args.head } : {}), ...(args.tail !== undefined ? { tail: args.tail } : {}) },
  };
}
