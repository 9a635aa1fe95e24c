/**
 * Race-free file access inside the repository (openat semantics without openat).
 *
 * A path is checked first (path-rules.ts, PathContainment: its real path must be inside
 * the repository); then it is used by walking its real path from the repository root
 * one component at a time, each opened with O_NOFOLLOW | O_DIRECTORY, and every file
 * is opened with O_NOFOLLOW in the last directory. On Linux each step goes through
 * `/proc/self/fd/<fd>/<name>`: the kernel resolves the directory the open descriptor
 * refers to, not a path that may have changed, so a symbolic link swapped in after the
 * check is refused (`path_changed`) instead of followed, and a write (temp file +
 * rename) lands in the very directory that was checked. Elsewhere (no /proc) the same
 * walk runs on real paths and each opened directory is compared with a fresh
 * realpath: the window is narrowed, not closed.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readlinkSync, realpathSync, statSync, type Stats } from "node:fs";
import { join } from "node:path";
import { WorkspaceError } from "./workspace-error.js";

export const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
export const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

let procFd: boolean | undefined;

/** Are Linux's /proc/self/fd magic links usable here? */
export function hasProcFd(): boolean {
  if (procFd === undefined) {
    try {
      const fd = openSync("/", "r");
      try {
        procFd = readlinkSync(`/proc/self/fd/${fd}`) === "/" && statSync(`/proc/self/fd/${fd}/`).isDirectory();
      } finally {
        closeSync(fd);
      }
    } catch {
      procFd = false;
    }
  }
  return procFd;
}

function errnoOf(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

/** An open directory inside the repository, and how to name entries inside it. */
export class PinnedDir {
  constructor(
    readonly fd: number,
    /** Its real absolute path when it was opened. */
    readonly realAbs: string,
    /** Repo-relative POSIX ("" for the root). */
    readonly rel: string,
  ) {}

  /** A path to an entry of this directory that resolves through the open descriptor where possible. */
  child(name: string): string {
    return hasProcFd() ? `/proc/self/fd/${this.fd}/${name}` : join(this.realAbs, name);
  }

  /** This directory itself, as a path (for readdir). */
  self(): string {
    return hasProcFd() ? `/proc/self/fd/${this.fd}` : this.realAbs;
  }

  /** Open the subdirectory `name` (never through a symbolic link); with `create`, make it when missing. */
  sub(name: string, create = false): PinnedDir {
    const rel = this.rel === "" ? name : `${this.rel}/${name}`;
    const path = this.child(name);
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    } catch (e) {
      const code = errnoOf(e);
      if (code === "ENOENT" && create) {
        try {
          mkdirSync(path);
        } catch (m) {
          if (errnoOf(m) !== "EEXIST") throw m;
        }
        return this.sub(name, false);
      }
      throw classifyOpenError(e, rel, "directory", path);
    }
    const realAbs = join(this.realAbs, name);
    if (!hasProcFd()) {
      // No descriptor-relative paths: check that what we opened is what its real path names now.
      try {
        const st = fstatSync(fd);
        const now = statSync(realpathSync(realAbs));
        if (realpathSync(realAbs) !== realAbs || st.ino !== now.ino || st.dev !== now.dev) throw new Error("moved");
      } catch {
        closeSync(fd);
        throw new WorkspaceError(
          "path_changed",
          `${rel}: the path changed while it was being used (a symbolic link was swapped in?); nothing was read or written`,
        );
      }
    }
    return new PinnedDir(fd, realAbs, rel);
  }

  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      /* already closed */
    }
  }
}

/** Turn an open() failure on a checked path into the error the caller sees. */
export function classifyOpenError(e: unknown, rel: string, wanted: "file" | "directory", lstatPath?: string): Error {
  const code = errnoOf(e);
  if (code === "ELOOP") return new WorkspaceError("path_changed", `${rel}: became a symbolic link after it was checked; nothing was read or written`);
  if (code === "ENOENT") return new WorkspaceError("not_found", `${rel}: no such ${wanted}`);
  if (code === "ENOTDIR") {
    if (lstatPath !== undefined) {
      try {
        if (lstatSync(lstatPath).isSymbolicLink())
          return new WorkspaceError("path_changed", `${rel}: became a symbolic link after it was checked; nothing was read or written`);
      } catch {
        /* fall through */
      }
    }
    return new WorkspaceError(wanted === "directory" ? "not_a_directory" : "not_found", `${rel}: a path component is not a directory`);
  }
  if (code === "EACCES" || code === "EPERM") return new WorkspaceError("not_found", `${rel}: permission denied`);
  return e instanceof Error ? e : new Error(String(e));
}

/** Open the repository root. */
export function openRoot(realRoot: string): PinnedDir {
  return new PinnedDir(openSync(realRoot, constants.O_RDONLY | O_DIRECTORY), realRoot, "");
}

/** Open the directory `relDir` (repo-relative POSIX, real path: no symbolic links in it) component by component. */
export function openPinnedDir(realRoot: string, relDir: string, create = false): PinnedDir {
  let dir = openRoot(realRoot);
  for (const name of relDir.split("/")) {
    if (name === "" || name === ".") continue;
    try {
      const next = dir.sub(name, create);
      dir.close();
      dir = next;
    } catch (e) {
      dir.close();
      throw e;
    }
  }
  return dir;
}

/** Open a file in a pinned directory with O_NOFOLLOW (a FIFO never blocks: O_NONBLOCK); returns its fd and stats. */
export function openFileIn(dir: PinnedDir, name: string, flags: number, mode = 0o666): { fd: number; stat: Stats } {
  const rel = dir.rel === "" ? name : `${dir.rel}/${name}`;
  let fd: number;
  try {
    fd = openSync(dir.child(name), flags | O_NOFOLLOW | O_NONBLOCK, mode);
  } catch (e) {
    throw classifyOpenError(e, rel, "file", dir.child(name));
  }
  const stat = fstatSync(fd);
  if (!hasProcFd()) {
    try {
      const now = lstatSync(join(dir.realAbs, name));
      if (now.ino !== stat.ino || now.dev !== stat.dev) throw new Error("moved");
    } catch {
      closeSync(fd);
      throw new WorkspaceError("path_changed", `${rel}: the path changed while it was being used; nothing was read or written`);
    }
  }
  return { fd, stat };
}
