/**
 * `get_file_info` (the MCP filesystem server's): a file's or directory's metadata —
 * size, created, modified and accessed times, whether it is a directory or a file, its
 * permission bits (octal) — answered as it does (`key: value` lines) and structured
 * beside it, with its kind. A path through a symbolic link inside the repository
 * describes what the link leads to; one leading out is refused like any other path.
 */
import { closeSync, constants, fstatSync, openSync } from "node:fs";
import { openPinnedDir, O_NOFOLLOW } from "../pinned-dir.js";
import { WorkspaceError } from "../workspace-error.js";
import type { Workspace } from "../workspace.js";
import type { ToolOutput } from "./tool-output.js";

export interface FileInfoResult {
  success: true;
  content: string;
  path: string;
  kind: "file" | "dir" | "other";
  size: number;
  created: string;
  modified: string;
  accessed: string;
  isDirectory: boolean;
  isFile: boolean;
  /** Permission bits, octal (e.g. "644"). */
  permissions: string;
}

export function getFileInfoTool(ws: Workspace, args: { path: string }): ToolOutput<FileInfoResult> {
  const c = ws.check(args.path, "read", { allowRoot: true });
  const dir = openPinnedDir(ws.root, c.dir);
  let st;
  try {
    if (c.rel === "") st = fstatSync(dir.fd);
    else {
      let fd: number;
      try {
        fd = openSync(dir.child(c.name), constants.O_RDONLY | O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "ENOENT") throw new WorkspaceError("not_found", `${c.rel}: no such file or directory`);
        if (code === "ELOOP") throw new WorkspaceError("path_changed", `${c.rel}: became a symbolic link after it was checked; nothing was read`);
        throw e;
      }
      try {
        st = fstatSync(fd);
      } finally {
        closeSync(fd);
      }
    }
  } finally {
    dir.close();
  }
  const kind = st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
  const info = {
    size: st.size,
    created: st.birthtime.toISOString(),
    modified: st.mtime.toISOString(),
    accessed: st.atime.toISOString(),
    isDirectory: st.isDirectory(),
    isFile: st.isFile(),
    permissions: (st.mode & 0o777).toString(8),
  };
  const content = Object.entries(info)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");
  return { body: { success: true, content, path: c.rel, kind, ...info }, ledgerPath: c.rel, details: { kind, size: st.size }, text: content };
}
