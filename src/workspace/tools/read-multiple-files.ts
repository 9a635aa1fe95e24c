/**
 * `read_multiple_files` (the MCP filesystem server's): several files' text in one
 * request. Each path is checked and read on its own: one that is refused or fails is
 * reported in its place and the others are still read. Answers as the filesystem server
 * does (each file as `path:` and its text, or `path: Error - …`, separated by `---`),
 * with each file's outcome structured beside it. At most MAX_MULTI_BYTES of text in all:
 * past that, the remaining files are reported as `too_large`.
 */
import { PathContainment } from "../../fsx/contain-path.js";
import { DirCache } from "../dir-cache.js";
import { WorkspaceError } from "../workspace-error.js";
import type { Workspace } from "../workspace.js";
import { readCheckedText } from "./read-file.js";
import type { ToolOutput } from "./tool-output.js";

export const MAX_MULTI_BYTES = 64 * 1024 * 1024;

export type MultiFileEntry =
  | { path: string; success: true; rel: string; content: string; bytes: number; sha256: string }
  | { path: string; success: false; code: string; message: string };

export interface ReadMultipleFilesResult {
  success: true;
  content: string;
  files: MultiFileEntry[];
  /** How many could not be read. */
  failed: number;
}

export function readMultipleFilesTool(ws: Workspace, args: { paths: string[] }): ToolOutput<ReadMultipleFilesResult> {
  let total = 0;
  // One containment and one set of open directories for the whole request.
  const containment = new PathContainment(ws.root);
  const dirs = new DirCache(ws.root);
  const files: MultiFileEntry[] = args.paths.map((given) => {
    try {
      if (total > MAX_MULTI_BYTES)
        throw new WorkspaceError("too_large", `not read: the files before it already hold more than the ${MAX_MULTI_BYTES} bytes one request returns`);
      const c = ws.check(given, "read", { containment });
      const r = readCheckedText(ws, c, "read_multiple_files", dirs);
      total += r.bytes;
      return { path: given, success: true, rel: c.rel, content: r.text, bytes: r.bytes, sha256: r.sha256 };
    } catch (e) {
      if (e instanceof WorkspaceError) return { path: given, success: false, code: e.code, message: e.message };
      const errno = (e as NodeJS.ErrnoException).code;
      if (typeof errno === "string") return { path: given, success: false, code: "io_error", message: (e as Error).message };
      throw e;
    }
  });
  dirs.close();
  const content = files.map((f) => (f.success ? `${f.path}:\n${f.content}\n` : `${f.path}: Error - ${f.message}`)).join("\n---\n");
  const failed = files.filter((f) => !f.success).length;
  return {
    body: { success: true, content, files, failed },
    ledgerPath: "",
    details: {
      files: files.map((f) => (f.success ? { path: f.rel, sha256: f.sha256 } : { path: f.path.slice(0, 4096), code: f.code })),
      failed,
    },
    text: content,
  };
}
