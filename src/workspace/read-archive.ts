/**
 * Read the archive back: which versions of which paths it holds (`listArchived`) and
 * the bytes of one of them (`readArchived`), for `noma-reconcile archive list|restore`.
 * The same archives open with GNU tar: `tar --zstd -xvf archive/2026/05/docs/a.md.tar.zst`
 * writes `docs/a.md.~1~`, `docs/a.md.~2~`, … with their modes and mtimes.
 */
import { createHash } from "node:crypto";
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { unpackTar } from "modern-tar";
import { memberVersion } from "./archive-version.js";
import { loadZstd } from "./load-zstd.js";
import { readCheckedFile } from "./tools/read-file.js";
import { WorkspaceError } from "./workspace-error.js";
import type { Workspace } from "./workspace.js";

export interface ArchivedMember {
  /** Member name (`<path>.~N~`). */
  member: string;
  version: number;
  size: number;
  /** Permission bits, octal text (e.g. "644"). */
  mode: string;
  /** ISO 8601 mtime of the version (whole seconds). */
  mtime: string;
  sha256: string;
}

export interface ArchiveFile {
  /** Repo-relative path of the archive file. */
  archive: string;
  /** The archived path. */
  path: string;
  /** "YYYY-MM". */
  month: string;
  members: ArchivedMember[];
}

/** Archive files under the archive directory (YYYY/MM/…/*.tar.zst), by month then path; symbolic links are skipped; an unreadable folder throws. */
function archiveFiles(ws: Workspace): Array<{ archive: string; path: string; month: string }> {
  const base = ws.protectedPaths.archive;
  const out: Array<{ archive: string; path: string; month: string }> = [];
  // A folder that does not exist holds no versions; one that cannot be read is an error, never "no versions".
  const list = (rel: string): string[] => {
    try {
      return readdirSync(join(ws.root, rel)).sort();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return [];
      throw new WorkspaceError("archive_unreadable", `${rel}: the archive folder cannot be read (${code ?? (e as Error).message})`);
    }
  };
  const walk = (rel: string, month: string, under: string): void => {
    for (const name of list(rel)) {
      const child = `${rel}/${name}`;
      const st = lstatSync(join(ws.root, child));
      if (st.isDirectory()) walk(child, month, under === "" ? name : `${under}/${name}`);
      else if (st.isFile() && name.endsWith(".tar.zst"))
        out.push({ archive: child, path: `${under === "" ? "" : `${under}/`}${name.slice(0, -".tar.zst".length)}`, month });
    }
  };
  for (const y of list(base).filter((n) => /^\d{4}$/.test(n))) {
    for (const m of list(`${base}/${y}`).filter((n) => /^\d{2}$/.test(n))) walk(`${base}/${y}/${m}`, `${y}-${m}`, "");
  }
  return out;
}

async function readMembers(ws: Workspace, archive: string): Promise<Array<{ name: string; data: Uint8Array; mode: number; mtime: Date }>> {
  const { bytes } = readCheckedFile(ws, ws.check(archive, "read"), 1 << 30);
  const zstd = await loadZstd();
  let tar: Uint8Array;
  try {
    tar = zstd.decompress(bytes);
  } catch (e) {
    throw new WorkspaceError("archive_unreadable", `${archive}: cannot be decompressed (${(e as Error).message})`);
  }
  const entries = await unpackTar(tar, { strict: true });
  return entries
    .filter((e) => (e.header.type ?? "file") === "file")
    .map((e) => ({ name: e.header.name, data: e.data ?? new Uint8Array(), mode: e.header.mode ?? 0o644, mtime: e.header.mtime ?? new Date(0) }));
}

/** Every archived version (of `path` only, when given). */
export async function listArchived(ws: Workspace, path?: string): Promise<ArchiveFile[]> {
  const out: ArchiveFile[] = [];
  for (const f of archiveFiles(ws)) {
    if (path !== undefined && f.path !== path) continue;
    const members = (await readMembers(ws, f.archive)).map((m) => ({
      member: m.name,
      version: memberVersion(m.name) ?? 0,
      size: m.data.length,
      mode: (m.mode & 0o7777).toString(8),
      mtime: m.mtime.toISOString().replace(".000Z", "Z"),
      sha256: createHash("sha256").update(m.data).digest("hex"),
    }));
    out.push({ ...f, members });
  }
  return out;
}

/** One archived version's bytes: of `month` ("YYYY-MM", default the latest holding `path`) and `version` (default its latest). */
export async function readArchived(
  ws: Workspace,
  path: string,
  options: { month?: string; version?: number } = {},
): Promise<{ archive: string; member: string; data: Uint8Array; mode: number; mtime: Date }> {
  const files = archiveFiles(ws).filter((f) => f.path === path && (options.month === undefined || f.month === options.month));
  const file = files[files.length - 1];
  if (file === undefined)
    throw new WorkspaceError(
      "not_found",
      `${path}: no archived version${options.month !== undefined ? ` in ${options.month}` : ""} under ${ws.protectedPaths.archive}/`,
    );
  const members = await readMembers(ws, file.archive);
  const pick = options.version !== undefined ? members.find((m) => memberVersion(m.name) === options.version) : members[members.length - 1];
  if (pick === undefined)
    throw new WorkspaceError("not_found", `${file.archive}: no version ${options.version} (it holds ${members.map((m) => memberVersion(m.name)).join(", ")})`);
  return { archive: file.archive, member: pick.name, ...pick };
}
