/**
 * Replace a file's contents the workspace way — the one write path of edit_file,
 * apply_patch, write_file, append_file and `archive restore`: under the path's lock, read
 * the current version through pinned directories, compute the new one, record the intent
 * (the request's intent line: effect-journal.ts), archive the current version
 * (archive-version.ts) when it is about to be overwritten, then write the new bytes
 * atomically (temp file, fsync, rename) in the same pinned directory. Nothing is ever deleted; a failure before the rename leaves the
 * old file as it was, and the archive already holds it.
 */
import { createHash } from "node:crypto";
import { closeSync, constants, type Stats } from "node:fs";
import { withLocks } from "./with-locks.js";
import { writeFileAtomic } from "../fsx/write-file-atomic.js";
import { archiveVersion, MAX_ARCHIVED_BYTES, readAll, type ArchivedVersion } from "./archive-version.js";
import { openFileIn, openPinnedDir, type PinnedDir } from "./pinned-dir.js";
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

/** What is about to be written (an intent line's details), known once the new bytes are. */
export interface PlannedWrite {
  sha256: string;
  bytes: number;
  previousSha256?: string;
  created: boolean;
}

export interface ReplaceOptions {
  /** The file may be created. */
  create: boolean;
  /** Missing directories are made (default: `create`). */
  createDirs?: boolean;
  /** Permission bits of the new version (a restore brings back the archived ones); default: kept. */
  mode?: number;
  /**
   * Told what will be written before anything is (the archive included), holding the
   * file's lock: the request's intent line goes to the ledger here (effect-journal.ts).
   * Not called when the contents are unchanged.
   */
  intent?: (planned: PlannedWrite) => Promise<void>;
  /** Archive the version overwritten (default true; append_file's previous version is the start of its new one). */
  archive?: boolean;
}

/**
 * `compute(old)` gives the new bytes from the current ones (null: the file does not
 * exist); it may throw to refuse.
 */
export async function replaceFile(ws: Workspace, c: CheckedPath, compute: (old: Buffer | null) => Uint8Array, options: ReplaceOptions): Promise<ReplaceResult> {
  if (c.rel === "") throw new WorkspaceError("not_a_file", `${JSON.stringify(c.given)}: the repository root is not a file`);
  return withLocks(
    ws.lockPath("file", c.rel),
    async () => {
      // Directories are made only after the intent is recorded: they are changes on disk too.
      let dir: PinnedDir | null = null;
      try {
        dir = openPinnedDir(ws.root, c.dir, false);
      } catch (e) {
        if (!(e instanceof WorkspaceError && e.code === "not_found")) throw e;
        if (!options.create) throw new WorkspaceError("not_found", `${c.rel}: no such file (edit_file creates files with create_if_missing: true)`);
        if (!(options.createDirs ?? options.create)) throw new WorkspaceError("not_found", `${c.dir}: no such directory (create_directory makes it)`);
      }
      try {
        let old: Buffer | null = null;
        let stat: Stats | null = null;
        try {
          if (dir !== null) {
            const opened = openFileIn(dir, c.name, constants.O_RDONLY);
            try {
              stat = opened.stat;
              if (stat.isDirectory()) throw new WorkspaceError("not_a_file", `${c.rel}: is a directory`);
              if (!stat.isFile()) throw new WorkspaceError("not_a_file", `${c.rel}: not a regular file`);
              if (stat.size > MAX_ARCHIVED_BYTES)
                throw new WorkspaceError(
                  "too_large",
                  `${c.rel}: ${stat.size} bytes, more than the archive takes (${MAX_ARCHIVED_BYTES}); it is not overwritten`,
                );
              old = readAll(opened.fd, stat.size);
            } finally {
              closeSync(opened.fd);
            }
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
        }
        await options.intent?.({
          sha256: result.sha256,
          bytes: next.length,
          ...(result.previousSha256 !== undefined ? { previousSha256: result.previousSha256 } : {}),
          created: result.created,
        });
        if (old !== null && options.archive !== false) {
          result.archived = await archiveVersion(ws, c.rel, old, stat!);
        }
        dir ??= openPinnedDir(ws.root, c.dir, true);
        writeFileAtomic(dir.child(c.name), next, options.mode === undefined ? {} : { mode: options.mode });
        return result;
      } finally {
        dir?.close();
      }
    },
    ws.lockTimeoutMs,
  );
}
