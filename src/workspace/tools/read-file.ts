/**
 * NOA `read_file`: the UTF-8 text of a file inside the repository (at most
 * MAX_FILE_BYTES), with its size and sha256. Refused: directories, FIFOs and other
 * non-files, bytes that are not UTF-8, `.git/`.
 */
import { createHash } from "node:crypto";
import { closeSync, constants } from "node:fs";
import { readAll } from "../archive-version.js";
import { openFileIn, openPinnedDir } from "../pinned-dir.js";
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
}

/** Read a checked path's bytes through pinned directories (null when `missingOk` and it does not exist). */
export function readCheckedFile(ws: Workspace, c: CheckedPath, limit: number): { bytes: Buffer; stat: import("node:fs").Stats } {
  if (c.rel === "") throw new WorkspaceError("not_a_file", `${JSON.stringify(c.given)}: the repository root is a directory (use list_files)`);
  const dir = openPinnedDir(ws.root, c.dir);
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
    dir.close();
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function readFileTool(ws: Workspace, args: { path: string }): ToolOutput<ReadFileResult> {
  const c = ws.check(args.path, "read");
  const { bytes } = readCheckedFile(ws, c, MAX_FILE_BYTES);
  let contents: string;
  try {
    contents = utf8.decode(bytes);
  } catch {
    throw new WorkspaceError("not_utf8", `${c.rel}: not UTF-8 text (read_file returns text only)`);
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return { body: { success: true, path: c.rel, contents, bytes: bytes.length, sha256 }, ledgerPath: c.rel, details: { bytes: bytes.length, sha256 } };
}
