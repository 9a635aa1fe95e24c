/**
 * Replace a file's contents the workspace way — the one write path of edit_file,
 * apply_patch and `archive restore`: under the path's lock, read the current version
 * through pinned directories, archive it (archive-version.ts) when it is about to be
 * overwritten, then write the new bytes atomically (temp file, fsync, rename) in the
 * same pinned directory. Nothing is ever deleted; a failure before the rename leaves the
 * old file as it was, and the archive already holds it.
 */
import { createHash } from "node:crypto";
import { closeSync, constants, type Stats } from "node:fs";
import { withLocks } from "./with-locks.js";
import { writeFileAtomic } from "../fsx/write-file-atomic.js";
import { archiveVersion, MAX_ARCHIVED_BYTES, readAll, type ArchivedVersion } from "./archive-version.js";
import { openFileIn, openPinnedDir } from "./pinned-dir.js";
import { WorkspaceError } from "./workspace-error.js";
import type { CheckedPath, Workspace } from "./workspace.js";

export interface ReplaceResult {
  created: boolean;
  unchanged: boolean;
  bytesWritten: number;
  sha256: string;
  previousSha256?: string;
  archived?: ArchivedVersion;
}

const sha = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");

/**
 * `compute(old)` gives the new bytes from the current ones (null: the file does not
 * exist); it may throw to refuse. With `create`, missing directories are made. `mode`
 * sets the permission bits (a restore brings back the archived ones); else they are kept.
 */
export async function replaceFile(
  ws: Workspace,
  c: CheckedPath,
  compute: (old: Buffer | null) => Uint8Array,
  options: { create: boolean; mode?: number },
): Promise<ReplaceResult> {
  if (c.rel === "") throw new WorkspaceError("not_a_file", `${JSON.stringify(c.given)}: the repository root is not a file`);
  return withLocks(
    ws.lockPath("file", c.rel),
    async () => {
      let dir;
      try {
        dir = openPinnedDir(ws.root, c.dir, options.create);
      } catch (e) {
        if (e instanceof WorkspaceError && e.code === "not_found" && !options.create)
          throw new WorkspaceError("not_found", `${c.rel}: no such file (edit_file creates files with create_if_missing: true)`);
        throw e;
      }
      try {
        let old: Buffer | null = null;
        let stat: Stats | null = null;
        try {
          const opened = openFileIn(dir, c.name, constants.O_RDONLY);
          try {
            stat = opened.stat;
            if (stat.isDirectory()) throw new WorkspaceError("not_a_file", `${c.rel}: is a directory`);
            if (!stat.isFile()) throw new WorkspaceError("not_a_file", `${c.rel}: not a regular file`);
            if (stat.size > MAX_ARCHIVED_BYTES)
              throw new WorkspaceError("too_large", `${c.rel}: ${stat.size} bytes, more than the archive takes (${MAX_ARCHIVED_BYTES}); it is not overwritten`);
            old = readAll(opened.fd, stat.size);
          } finally {
            closeSync(opened.fd);
          }
        } catch (e) {
          if (!(e instanceof WorkspaceError && e.code === "not_found")) throw e;
        }
        if (old === null && !options.create) throw new WorkspaceError("not_found", `${c.rel}: no such file`);
        const next = compute(old);
        const result: ReplaceResult = { created: old === null, unchanged: false, bytesWritten: next.length, sha256: sha(next) };
        if (old !== null) {
          result.previousSha256 = sha(old);
          if (Buffer.compare(old, next) === 0) return { ...result, unchanged: true };
          result.archived = await archiveVersion(ws, c.rel, old, stat!);
        }
        writeFileAtomic(dir.child(c.name), next, options.mode === undefined ? {} : { mode: options.mode });
        return result;
      } finally {
        dir.close();
      }
    },
    ws.lockTimeoutMs,
  );
}
