/**
 * The exact before-state of the paths a patch will touch, kept on disk so a
 * failed patch — or a process killed while applying one — is undone byte for
 * byte: each path's bytes and mode (or its symbolic link target, or its
 * absence), and the directories that did not exist yet. Untracked and
 * ignored files are kept the same way as tracked ones; nothing else in the
 * tree is touched.
 *
 * Layout: `<dir>/manifest.json` and `<dir>/files/<n>`. The directory is built
 * under a temp name and renamed, so a backup either exists whole or not at all.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { writeFileAtomic } from "../fsx/write-file-atomic.js";
import { fsyncDir, fsyncTree } from "../fsx/fsync-tree.js";

export interface BackupEntry {
  path: string;
  kind: "file" | "symlink" | "absent";
  mode?: number;
  target?: string;
  /** `files/<n>` for a file's bytes. */
  blob?: string;
}

export interface BackupManifest {
  version: 1;
  created: string;
  entries: BackupEntry[];
  /** Directories (repo-relative) that did not exist, deepest first: removed again on restore when empty. */
  created_dirs: string[];
}

function missingAncestors(root: string, path: string): string[] {
  const out: string[] = [];
  let d = dirname(path);
  while (d !== "." && d !== "" && !existsSync(join(root, d))) {
    out.push(d);
    d = dirname(d);
  }
  return out;
}

/** Save the state of `paths` (repo-relative) under `dir` (absolute; must not exist). */
export function writeBackup(root: string, paths: readonly string[], dir: string): BackupManifest {
  const tmp = `${dir}.tmp-${randomBytes(4).toString("hex")}`;
  mkdirSync(join(tmp, "files"), { recursive: true });
  const entries: BackupEntry[] = [];
  const dirs = new Set<string>();
  let n = 0;
  for (const p of [...new Set(paths)].sort()) {
    const a = join(root, p);
    let st;
    try {
      st = lstatSync(a);
    } catch {
      entries.push({ path: p, kind: "absent" });
      for (const d of missingAncestors(root, p)) dirs.add(d);
      continue;
    }
    if (st.isSymbolicLink()) entries.push({ path: p, kind: "symlink", target: readlinkSync(a) });
    else if (st.isFile()) {
      const blob = `files/${++n}`;
      writeFileSync(join(tmp, blob), readFileSync(a));
      entries.push({ path: p, kind: "file", mode: st.mode & 0o7777, blob });
    } else throw new Error(`${p}: not a regular file or symbolic link; a patch cannot replace it`);
  }
  const manifest: BackupManifest = { version: 1, created: new Date().toISOString(), entries, created_dirs: [...dirs].sort((a, b) => b.length - a.length) };
  writeFileSync(join(tmp, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  fsyncTree(tmp);
  mkdirSync(dirname(dir), { recursive: true });
  renameSync(tmp, dir);
  fsyncDir(dirname(dir));
  return manifest;
}

export function readBackup(dir: string): BackupManifest | null {
  try {
    return JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as BackupManifest;
  } catch {
    return null;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Temp files an atomic write of `abs` left behind (`.<name>.<pid>.<hex>.tmp`, see
 * write-file-atomic.ts) when its writer was killed before the rename: those of dead
 * processes are removed (a live writer's temp file is its work in progress).
 */
function removeStrayTemps(abs: string): void {
  const dir = dirname(abs);
  const prefix = `.${basename(abs)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    if (!n.startsWith(prefix)) continue;
    const m = /^(\d+)\.[0-9a-f]{8}\.tmp$/.exec(n.slice(prefix.length));
    if (m === null || pidAlive(Number(m[1]))) continue;
    rmSync(join(dir, n), { force: true });
  }
}

/** Put every backed-up path back exactly as it was (idempotent), stray temp files of interrupted writes included. */
export function restoreBackup(root: string, dir: string, manifest: BackupManifest): void {
  for (const e of manifest.entries) {
    const a = join(root, e.path);
    removeStrayTemps(a);
    if (e.kind === "absent") {
      rmSync(a, { force: true, recursive: true });
      continue;
    }
    let current;
    try {
      current = lstatSync(a);
    } catch {
      current = null;
    }
    if (current !== null && (current.isDirectory() || current.isSymbolicLink() || e.kind === "symlink")) rmSync(a, { force: true, recursive: true });
    mkdirSync(dirname(a), { recursive: true });
    if (e.kind === "symlink") symlinkSync(e.target!, a);
    else {
      writeFileAtomic(a, readFileSync(join(dir, e.blob!)));
      chmodSync(a, e.mode!);
    }
  }
  for (const d of manifest.created_dirs) {
    try {
      rmdirSync(join(root, d));
    } catch {
      /* not empty (someone else's file) or already gone */
    }
  }
}

export function removeBackup(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
