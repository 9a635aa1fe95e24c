/**
 * `move_file` (the MCP filesystem server's): move or rename a file or a directory. The
 * destination must not exist (nothing is ever overwritten) and its directory must;
 * a directory cannot move into itself. Both paths are entries (a symbolic link as the
 * last component moves the link), contained and checked like every path.
 *
 * Nothing leaves the archive's reach: before the move, the intent line is recorded (the
 * source, the destination, the content's sha256 — for a directory, a manifest of every
 * file's path and sha256), then every regular file moved is archived under its old path
 * (`archive list <old path>` finds it), then the entry is moved: a file by a hard link
 * at the destination and the removal of the old name (a crash between leaves both names,
 * never neither), a directory by rename().
 *
 * Refused: a `.noma` document or a transcript (`*.noma.patches`) — a document's
 * transcript is kept beside it under its name, and transcripts are written by the patch
 * engine only — and a directory holding one, or holding anything the tools never write
 * (the ledger, the archive, the allowlist, the configuration); `.git` anywhere.
 */
import { createHash } from "node:crypto";
import { closeSync, constants, fsyncSync, linkSync, lstatSync, readlinkSync, renameSync, unlinkSync, type Stats } from "node:fs";
import { archiveVersion, MAX_ARCHIVED_BYTES, readAll } from "../archive-version.js";
import { type EffectJournal, libraryJournal } from "../effect-journal.js";
import { protectedReason } from "../path-rules.js";
import { openFileIn, openPinnedDir, type PinnedDir } from "../pinned-dir.js";
import { walkTree } from "../read-dir-entries.js";
import { WorkspaceError } from "../workspace-error.js";
import { withLocks } from "../with-locks.js";
import type { CheckedPath, Workspace } from "../workspace.js";
import type { ToolOutput } from "./tool-output.js";

/** Most files one directory move archives. */
export const MAX_MOVE_FILES = 10_000;
/** Most bytes one directory move archives. */
export const MAX_MOVE_BYTES = MAX_ARCHIVED_BYTES;

export interface MoveFileResult {
  success: true;
  content: string;
  source: string;
  destination: string;
  kind: "file" | "dir" | "symlink" | "other";
  /** The regular files moved, each archived under its old path first. */
  archived: Array<{ path: string; archive: string; member: string }>;
}

const sha = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");

function isNomaFile(rel: string): boolean {
  const l = rel.toLowerCase();
  return l.endsWith(".noma") || l.endsWith(".noma.patches");
}

function refuseDocument(rel: string): void {
  if (isNomaFile(rel))
    throw new WorkspaceError(
      "protected_path",
      `${rel}: a Noma document and its transcript (<document>.patches) belong together under the document's name; move_file does not move them ` +
        `(move both with git mv)`,
    );
}

interface Planned {
  /** Files to archive: repo-relative path, bytes, stat. */
  files: Array<{ rel: string; bytes: Buffer; stat: Stats }>;
  /** sha256 of a file or symbolic link target; for a directory, of its manifest. */
  sha256: string;
  entries: number;
}

/** Read what is about to move (every file under a directory), refusing what may not move. */
function plan(ws: Workspace, src: CheckedPath, srcDir: PinnedDir, st: Stats): Planned {
  if (st.isSymbolicLink()) return { files: [], sha256: sha(Buffer.from(readlinkSync(srcDir.child(src.name)))), entries: 1 };
  if (st.isFile()) {
    const { fd, stat } = openFileIn(srcDir, src.name, constants.O_RDONLY);
    try {
      if (stat.size > MAX_ARCHIVED_BYTES) throw new WorkspaceError("too_large", `${src.rel}: ${stat.size} bytes, more than the archive takes; it is not moved`);
      const bytes = readAll(fd, stat.size);
      return { files: [{ rel: src.rel, bytes, stat }], sha256: sha(bytes), entries: 1 };
    } finally {
      closeSync(fd);
    }
  }
  if (!st.isDirectory()) throw new WorkspaceError("not_a_file", `${src.rel}: not a regular file, directory or symbolic link; it is not moved`);
  const files: Planned["files"] = [];
  const manifest: string[] = [];
  let total = 0;
  let entries = 0;
  const top = srcDir.sub(src.name);
  try {
    walkTree(top, (rel, e) => {
      entries++;
      refuseDocument(rel);
      const reason = protectedReason(rel, ws.protectedPaths, true);
      if (reason !== null) throw new WorkspaceError("protected_path", `${src.rel} cannot be moved: it holds ${reason}`);
      if (e.kind === "file") {
        if (files.length >= MAX_MOVE_FILES)
          throw new WorkspaceError("too_large", `${src.rel}: more than ${MAX_MOVE_FILES} files; a move archives every file first, so it is refused`);
        const slash = rel.lastIndexOf("/");
        const dir = openPinnedDir(ws.root, rel.slice(0, slash));
        try {
          const { fd, stat } = openFileIn(dir, rel.slice(slash + 1), constants.O_RDONLY);
          try {
            total += stat.size;
            if (total > MAX_MOVE_BYTES) throw new WorkspaceError("too_large", `${src.rel}: more than ${MAX_MOVE_BYTES} bytes to archive; it is not moved`);
            const bytes = readAll(fd, stat.size);
            files.push({ rel, bytes, stat });
            manifest.push(`${rel.slice(src.rel.length + 1)}\0${sha(bytes)}`);
          } finally {
            closeSync(fd);
          }
        } finally {
          dir.close();
        }
      } else manifest.push(`${rel.slice(src.rel.length + 1)}\0${e.kind}`);
      return "descend";
    });
  } finally {
    top.close();
  }
  return { files, sha256: sha(Buffer.from(manifest.join("\n"))), entries };
}

/** Move one entry: a directory by rename(); anything else by a hard link, then the old name's removal (never over an existing one). */
function moveEntry(from: string, to: string, directory: boolean, shown: string): void {
  if (directory) {
    renameSync(from, to);
    return;
  }
  try {
    linkSync(from, to);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EEXIST") throw new WorkspaceError("already_exists", `${shown}: appeared meanwhile; nothing was moved`);
    // No hard links here (some file systems): a rename, the destination checked absent just before.
    if (code !== "EPERM" && code !== "EXDEV" && code !== "ENOTSUP") throw e;
    renameSync(from, to);
    return;
  }
  unlinkSync(from);
}

export async function moveFileTool(
  ws: Workspace,
  args: { source: string; destination: string },
  journal: EffectJournal = libraryJournal(ws, "move_file"),
): Promise<ToolOutput<MoveFileResult>> {
  const src = ws.checkEntry(args.source);
  const dst = ws.checkEntry(args.destination);
  refuseDocument(src.rel);
  refuseDocument(dst.rel);
  if (dst.rel === src.rel || dst.rel.startsWith(`${src.rel}/`))
    throw new WorkspaceError(
      "invalid_arguments",
      `move_file: ${dst.rel} is ${dst.rel === src.rel ? "the source itself" : `inside ${src.rel}`}; nothing was moved`,
    );
  const [first, second] = [src.rel, dst.rel].sort();
  return withLocks(
    ws.lockPath("file", first!),
    () =>
      withLocks(
        ws.lockPath("file", second!),
        async () => {
          const srcDir = openPinnedDir(ws.root, src.dir);
          try {
            let dstDir: PinnedDir;
            try {
              dstDir = openPinnedDir(ws.root, dst.dir);
            } catch (e) {
              if (e instanceof WorkspaceError && e.code === "not_found")
                throw new WorkspaceError("not_found", `${dst.dir}: no such directory (create_directory makes it); nothing was moved`);
              throw e;
            }
            try {
              let st: Stats;
              try {
                st = lstatSync(srcDir.child(src.name));
              } catch {
                throw new WorkspaceError("not_found", `${src.rel}: no such file or directory`);
              }
              let taken = true;
              try {
                lstatSync(dstDir.child(dst.name));
              } catch {
                taken = false;
              }
              if (taken) throw new WorkspaceError("already_exists", `${dst.rel}: already exists; move_file never overwrites (nothing was moved)`);
              const kind = st.isSymbolicLink() ? "symlink" : st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
              const planned = plan(ws, src, srcDir, st);
              await journal.intent(src.rel, {
                destination: dst.rel,
                kind,
                sha256: planned.sha256,
                ...(kind === "dir" ? { entries: planned.entries, files: planned.files.length } : {}),
              });
              const archived: MoveFileResult["archived"] = [];
              for (const f of planned.files) {
                const a = await archiveVersion(ws, f.rel, f.bytes, f.stat);
                archived.push({ path: f.rel, archive: a.archive, member: a.member });
              }
              moveEntry(srcDir.child(src.name), dstDir.child(dst.name), kind === "dir", dst.rel);
              for (const d of [srcDir, dstDir]) {
                try {
                  fsyncSync(d.fd);
                } catch {
                  /* directories cannot be fsynced on every platform */
                }
              }
              const content = `Successfully moved ${args.source} to ${args.destination}`;
              return {
                body: { success: true, content, source: src.rel, destination: dst.rel, kind, archived },
                ledgerPath: src.rel,
                details: { destination: dst.rel, kind, sha256: planned.sha256, archived: archived.length },
                text: content,
              };
            } finally {
              dstDir.close();
            }
          } finally {
            srcDir.close();
          }
        },
        ws.lockTimeoutMs,
      ),
    ws.lockTimeoutMs,
  );
}
