/**
 * NOA `list_files`: the entries of a directory inside the repository — path
 * (repo-relative), kind (file, dir, symlink, other) and size (0 for directories) —
 * sorted by name, directories before their contents when recursive. Symbolic links are
 * listed, never followed; `.git` is left out. At most `max_entries` (then `truncated`).
 */
import { lstatSync, readdirSync } from "node:fs";
import { isGitComponent } from "../path-rules.js";
import { openPinnedDir, type PinnedDir } from "../pinned-dir.js";
import { WorkspaceError } from "../workspace-error.js";
import { DEFAULT_LIST_ENTRIES } from "../workspace-schemas.js";
import type { Workspace } from "../workspace.js";
import type { ToolOutput } from "./tool-output.js";

export interface ListEntry {
  path: string;
  kind: "file" | "dir" | "symlink" | "other";
  size: number;
}

export interface ListFilesResult {
  success: true;
  path: string;
  entries: ListEntry[];
  truncated: boolean;
}

const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

export function listFilesTool(ws: Workspace, args: { path?: string; recursive?: boolean; max_entries?: number }): ToolOutput<ListFilesResult> {
  const c = ws.check(args.path ?? ".", "read", { allowRoot: true });
  const max = args.max_entries ?? DEFAULT_LIST_ENTRIES;
  const entries: ListEntry[] = [];
  let truncated = false;
  let top: PinnedDir;
  try {
    top = openPinnedDir(ws.root, c.rel);
  } catch (e) {
    if (e instanceof WorkspaceError && e.code === "not_a_directory") throw new WorkspaceError("not_a_directory", `${c.rel}: not a directory (use read_file)`);
    throw e;
  }
  const walk = (dir: PinnedDir): void => {
    const names = readdirSync(dir.self())
      .filter((n) => !isGitComponent(n))
      .sort(byteOrder);
    for (const name of names) {
      if (entries.length >= max) {
        truncated = true;
        return;
      }
      let st;
      try {
        st = lstatSync(dir.child(name));
      } catch {
        continue; // removed meanwhile
      }
      const kind: ListEntry["kind"] = st.isSymbolicLink() ? "symlink" : st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
      const path = dir.rel === "" ? name : `${dir.rel}/${name}`;
      entries.push({ path, kind, size: kind === "file" ? st.size : 0 });
      if (kind === "dir" && args.recursive === true) {
        let sub: PinnedDir;
        try {
          sub = dir.sub(name);
        } catch {
          continue; // replaced meanwhile: not followed
        }
        try {
          walk(sub);
        } finally {
          sub.close();
        }
        if (truncated) return;
      }
    }
  };
  try {
    walk(top);
  } finally {
    top.close();
  }
  return {
    body: { success: true, path: c.rel, entries, truncated },
    ledgerPath: c.rel,
    details: { entries: entries.length, recursive: args.recursive === true, truncated },
  };
}
