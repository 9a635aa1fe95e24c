/**
 * Symbolic links that lead out of the repository. A path inside the
 * repository whose real path (links resolved) lies outside it is never read
 * or written through: reading would print bytes of an outside file (a
 * committed `docs/a.noma.patches -> /etc/passwd`), writing would put them
 * outside (`.notarai/.cache -> /tmp/x`). The refusal names the link and where
 * it points.
 */
import { NomaError } from "../errors/noma-error.js";
import { isOutside } from "./is-outside.js";
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { realpathLenient } from "./realpath-lenient.js";

export class SymlinkEscapeError extends NomaError {
  static override readonly errorName: string = "SymlinkEscapeError";
  constructor(
    /** The link, repository-relative. */
    readonly link: string,
    /** Where it points (its real path, or its raw target when that does not exist). */
    readonly target: string,
    readonly root: string,
    action: string,
  ) {
    super(
      "symlink-outside-repo",
      `${link} is a symbolic link to ${target}, outside the repository (${root}); refusing to ${action} through it (nothing was read or written)`,
    );
  }
}

/** Real path; a missing tail is joined on, a dangling link followed to where its target would be. */
const real = realpathLenient;

const outside = isOutside;

/**
 * The first symbolic link on the way from `root` to `rel` (repository-relative) that leads
 * outside the repository, with where it points; null when `rel` resolves inside (or nothing
 * on the way is a link). `rel` need not exist.
 */
export function symlinkEscape(root: string, rel: string): { link: string; target: string } | null {
  const realRoot = real(root);
  if (!outside(realRoot, real(join(root, rel)))) return null;
  const parts = rel.split(/[\\/]+/).filter((p) => p.length > 0 && p !== ".");
  for (let i = 1; i <= parts.length; i++) {
    const at = join(root, ...parts.slice(0, i));
    let isLink = false;
    try {
      isLink = lstatSync(at).isSymbolicLink();
    } catch {
      break;
    }
    if (!isLink) continue;
    const resolved = real(at);
    if (outside(realRoot, resolved)) {
      let target = resolved;
      try {
        const raw = readlinkSync(at);
        if (resolved === at) target = resolve(dirname(at), raw);
      } catch {
        /* keep the real path */
      }
      return { link: parts.slice(0, i).join("/"), target };
    }
  }
  return { link: rel, target: real(join(root, rel)) };
}

/** Throw SymlinkEscapeError when `rel` leads outside `root` through a link; `action` says what was refused ("read", "write the cache"). */
export function assertNoSymlinkEscape(root: string, rel: string, action: string): void {
  const e = symlinkEscape(root, rel);
  if (e !== null) throw new SymlinkEscapeError(e.link, e.target, root, action);
}

/** A file that must be a regular file is a symbolic link (wherever it points). */
export class SymlinkNotAllowedError extends NomaError {
  static override readonly errorName: string = "SymlinkNotAllowedError";
  constructor(
    readonly path: string,
    readonly target: string,
    why: string,
  ) {
    super("symlink-not-allowed", `${path} is a symbolic link to ${target}; ${why} (nothing was read or written)`);
  }
}

/** Where the link at `abs` points (its real path, else its raw target resolved beside it). */
export function linkTarget(abs: string): string {
  try {
    return realpathSync.native(abs);
  } catch {
    try {
      return resolve(dirname(abs), readlinkSync(abs));
    } catch {
      return "?";
    }
  }
}

/** Whether `abs` is itself a symbolic link (not following it). */
export function isSymlink(abs: string): boolean {
  try {
    return lstatSync(abs).isSymbolicLink();
  } catch {
    return false;
  }
}
