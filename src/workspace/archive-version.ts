/**
 * Archive before overwrite: the version a tool is about to replace is first added to
 * `<archive>/YYYY/MM/<path>.tar.zst` (the month of the archiving, UTC), a real tar
 * (ustar, pax headers for long names; GNU tar reads it) compressed with zstd, the member
 * keeping the file's mode, mtime (whole seconds), uid and gid.
 *
 * The rule for several versions of one path in one month: **one archive per path per
 * month, one member per version, named `<path>.~N~`** (N = 1, 2, … in archiving order,
 * the numbered-backup names of `cp --backup=numbered`), so extracting the archive never
 * overwrites the live file and every version comes out side by side. A new version is
 * appended under the archive's lock: the existing members are kept byte for byte (the tar
 * is cut at its end-of-archive marker, the new member and a new marker are appended),
 * the whole is compressed again, checked by decompressing and re-reading it, and written
 * atomically (temp file, fsync, rename) in the pinned archive directory. An archive that
 * cannot be read is never rewritten: the overwrite is refused instead.
 */
import { closeSync, readSync, type Stats } from "node:fs";
import { constants } from "node:fs";
import { posix } from "node:path";
import { packTar } from "modern-tar";
import { withLocks } from "./with-locks.js";
import { writeFileAtomic } from "../fsx/write-file-atomic.js";
import { loadZstd } from "./load-zstd.js";
import { openFileIn, openPinnedDir, type PinnedDir } from "./pinned-dir.js";
import { TarFormatError, tarMembers } from "./tar-members.js";
import { WorkspaceError } from "./workspace-error.js";
import type { Workspace } from "./workspace.js";

/** Largest previous version archived (bytes); a larger file is not overwritten. */
export const MAX_ARCHIVED_BYTES = 256 * 1024 * 1024;

export interface ArchivedVersion {
  /** Repo-relative path of the archive file. */
  archive: string;
  /** Member name inside it. */
  member: string;
  /** N of `.~N~`. */
  version: number;
}

/** `<archive>/YYYY/MM/<rel>.tar.zst` for the month (UTC) of `date`. */
export function archivePathFor(archiveDir: string, rel: string, date: Date): string {
  const y = String(date.getUTCFullYear()).padStart(4, "0");
  const m = String(date.getUTCMonth() + 1).padStart(2, "0");
  return `${archiveDir}/${y}/${m}/${rel}.tar.zst`;
}

/** The member name of version `n` of `rel`. */
export function memberName(rel: string, n: number): string {
  return `${rel}.~${n}~`;
}

/** N of a member name `<rel>.~N~`, or null. */
export function memberVersion(name: string): number | null {
  const m = /\.~(\d+)~$/.exec(name);
  return m !== null ? Number(m[1]) : null;
}

export function readAll(fd: number, size: number): Buffer {
  const buf = Buffer.alloc(size);
  let off = 0;
  while (off < size) {
    const n = readSync(fd, buf, off, size - off, off);
    if (n === 0) break;
    off += n;
  }
  return off === size ? buf : buf.subarray(0, off);
}

const EOF_MARKER = new Uint8Array(1024);

/** Read an archive file's tar bytes (null when it does not exist). */
export async function readArchiveTar(dir: PinnedDir, name: string, rel: string): Promise<Uint8Array | null> {
  let opened: ReturnType<typeof openFileIn>;
  try {
    opened = openFileIn(dir, name, constants.O_RDONLY);
  } catch (e) {
    if (e instanceof WorkspaceError && e.code === "not_found") return null;
    throw e;
  }
  let bytes: Buffer;
  try {
    if (!opened.stat.isFile()) throw new WorkspaceError("archive_unreadable", `${rel}: not a regular file`);
    bytes = readAll(opened.fd, opened.stat.size);
  } finally {
    closeSync(opened.fd);
  }
  const zstd = await loadZstd();
  try {
    return zstd.decompress(bytes);
  } catch (e) {
    throw new WorkspaceError(
      "archive_unreadable",
      `${rel}: cannot be decompressed (${(e as Error).message}); it is left as it is and the overwrite is refused so no version is lost — move it ` +
        `aside to continue`,
    );
  }
}

/** Add `bytes` (with `stat`'s mode, mtime, uid, gid) as the next version of `rel` in this month's archive. */
export async function archiveVersion(
  ws: Workspace,
  rel: string,
  bytes: Uint8Array,
  stat: Pick<Stats, "mode" | "mtimeMs" | "uid" | "gid">,
): Promise<ArchivedVersion> {
  if (bytes.length > MAX_ARCHIVED_BYTES)
    throw new WorkspaceError(
      "too_large",
      `${rel}: the current version is ${bytes.length} bytes, more than the ${MAX_ARCHIVED_BYTES} the archive takes; it is not overwritten`,
    );
  const archiveRel = archivePathFor(ws.protectedPaths.archive, rel, ws.now());
  return withLocks(
    ws.lockPath("archive", archiveRel),
    async () => {
      const dir = openPinnedDir(ws.root, posix.dirname(archiveRel), true);
      try {
        const name = posix.basename(archiveRel);
        const old = await readArchiveTar(dir, name, archiveRel);
        let end = 0;
        let count = 0;
        if (old !== null) {
          try {
            const walked = tarMembers(old);
            end = walked.end;
            count = walked.members.length;
          } catch (e) {
            if (e instanceof TarFormatError)
              throw new WorkspaceError(
                "archive_unreadable",
                `${archiveRel}: not a readable tar (${e.message}); it is left as it is and the overwrite is refused — move it aside to continue`,
              );
            throw e;
          }
        }
        const member = memberName(rel, count + 1);
        const packed = await packTar([
          {
            header: {
              name: member,
              size: bytes.length,
              mode: stat.mode & 0o7777,
              mtime: new Date(Math.floor(stat.mtimeMs / 1000) * 1000),
              uid: stat.uid,
              gid: stat.gid,
              type: "file",
            },
            body: bytes,
          },
        ]);
        const packedEnd = tarMembers(packed).end;
        const tar = new Uint8Array(end + packedEnd + EOF_MARKER.length);
        if (old !== null) tar.set(old.subarray(0, end), 0);
        tar.set(packed.subarray(0, packedEnd), end);
        const zstd = await loadZstd();
        const compressed = zstd.compress(tar, 3);
        // Our own verifier first: what we write must read back as every old member plus the new one.
        const back = tarMembers(zstd.decompress(compressed));
        if (back.members.length !== count + 1 || back.members[count]!.name !== member || back.members[count]!.size !== bytes.length) {
          throw new WorkspaceError("internal", `${archiveRel}: the rewritten archive did not read back; nothing was written`);
        }
        writeFileAtomic(dir.child(name), compressed);
        return { archive: archiveRel, member, version: count + 1 };
      } finally {
        dir.close();
      }
    },
    ws.lockTimeoutMs,
  );
}
