/**
 * The entries of one directory inside the repository, through a pinned directory
 * (pinned-dir.ts): name, kind (file, dir, symlink, other — from lstat: a symbolic link
 * is never followed) and size (0 for directories), sorted by name in byte order; `.git`
 * is left out. The directory tools (list_files, list_directory*, directory_tree,
 * search_files) all read directories this way.
 */
import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { isGitComponent } from "./path-rules.js";
import { openPinnedDir, type PinnedDir } from "./pinned-dir.js";
import { WorkspaceError } from "./workspace-error.js";
import type { CheckedPath, Workspace } from "./workspace.js";

export type EntryKind = "file" | "dir" | "symlink" | "other";

export interface DirEntry {
  name: string;
  kind: EntryKind;
  size: number;
}

export const byteOrder = (a: string, b: string): number => (a === b ? 0 : Buffer.compare(Buffer.from(a), Buffer.from(b)));

const kindOf = (d: Pick<Dirent, "isSymbolicLink" | "isDirectory" | "isFile">): EntryKind =>
  d.isSymbolicLink() ? "symlink" : d.isDirectory() ? "dir" : d.isFile() ? "file" : "other";

/** The entries of an open directory; `sizes` asks an lstat of each file (else size is 0). */
export function readEntries(dir: PinnedDir, sizes: boolean): DirEntry[] {
  const out: DirEntry[] = [];
  for (const d of readdirSync(dir.self(), { withFileTypes: true })) {
    if (isGitComponent(d.name)) continue;
    let kind = kindOf(d);
    let size = 0;
    if (sizes && kind === "file") {
      try {
        const st = lstatSync(dir.child(d.name));
        kind = kindOf(st);
        size = kind === "file" ? st.size : 0;
      } catch {
        continue; // removed meanwhile
      }
    }
    out.push({ name: d.name, kind, size });
  }
  return out.sort((a, b) => byteOrder(a.name, b.name));
}

/** Open a checked directory (a file is `not_a_directory`, naming the tool to use instead). */
export function openCheckedDir(ws: Workspace, c: CheckedPath, fileTool = "read_text_file"): PinnedDir {
  try {
    return openPinnedDir(ws.root, c.rel);
  } catch (e) {
    if (e instanceof WorkspaceError && e.code === "not_a_directory") throw new WorkspaceError("not_a_directory", `${c.rel}: not a directory (use ${fileTool})`);
    if (e instanceof WorkspaceError && e.code === "path_changed") throw e;
    if (e instanceof WorkspaceError && e.code === "not_found") throw new WorkspaceError("not_found", `${c.rel === "" ? "." : c.rel}: no such directory`);
    throw e;
  }
}

/** Walk a directory tree depth first (names in byte order), never through a symbolic link; `visit` returns false to stop. */
export function walkTree(
  top: PinnedDir,
  visit: (rel: string, entry: DirEntry, depth: number) => "descend" | "skip" | "stop",
  options: { sizes?: boolean } = {},
): void {
  const walk = (dir: PinnedDir, depth: number): boolean => {
    for (const e of readEntries(dir, options.sizes === true)) {
      const rel = dir.rel === "" ? e.name : `${dir.rel}/${e.name}`;
      const what = visit(rel, e, depth);
      if (what === "stop") return false;
      if (what === "descend" && e.kind === "dir") {
        let sub: PinnedDir;
        try {
          sub = dir.sub(e.name);
        } catch {
          continue; // replaced meanwhile: not followed
        }
        try {
          if (!walk(sub, depth + 1)) return false;
        } finally {
          sub.close();
        }
      }
    }
    return true;
  };
  walk(top, 1);
}
