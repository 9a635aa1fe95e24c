/**
 * Pure rules about path text, applied before the file system is asked anything:
 * what a workspace path may look like (`checkPathText`) and which repository paths
 * the tools may never read or write (`protectedReason`).
 *
 * Paths are POSIX and relative to the repository root (an absolute path is accepted
 * when it resolves inside the repository). Refused as written: a NUL byte, any
 * backslash (a Windows separator), a drive letter or `//` prefix, any `..` component,
 * more than 4096 characters.
 *
 * `.git` is matched as a component the way a case-insensitive file system (macOS,
 * Windows) would see it: any case, trailing dots and spaces ignored (Windows drops
 * them), and Windows' 8.3 alias `GIT~1`. It is neither readable nor writable: its
 * config can hold credentials (`http.extraheader` from CI checkouts), and writing
 * hooks or config would run code outside the sandbox.
 */
import { WorkspaceError } from "./workspace-error.js";

export const MAX_PATH_CHARS = 4096;

/** Validate a path argument's text; returns it unchanged ("" → "." when `allowEmpty`). */
export function checkPathText(given: string, allowEmpty = false): string {
  if (given.length === 0) {
    if (allowEmpty) return ".";
    throw new WorkspaceError("invalid_path", "path is empty: give a file path relative to the repository root");
  }
  const shown = JSON.stringify(given.length > 200 ? `${given.slice(0, 200)}…` : given);
  if (given.includes("\0")) throw new WorkspaceError("invalid_path", `${shown}: a path may not contain a NUL byte`);
  if (given.length > MAX_PATH_CHARS) throw new WorkspaceError("invalid_path", `${shown}: longer than ${MAX_PATH_CHARS} characters`);
  if (given.includes("\\"))
    throw new WorkspaceError("invalid_path", `${shown}: backslashes are refused; write paths with forward slashes, relative to the repository root`);
  if (/^[A-Za-z]:/.test(given)) throw new WorkspaceError("invalid_path", `${shown}: drive letters are refused; write paths relative to the repository root`);
  if (given.startsWith("//")) throw new WorkspaceError("invalid_path", `${shown}: a path may not start with //`);
  if (given.split("/").includes("..")) throw new WorkspaceError("invalid_path", `${shown}: ".." is refused; write the path from the repository root`);
  return given;
}

/** A path component as a case-insensitive file system compares it (case folded, trailing dots and spaces dropped). */
function folded(component: string): string {
  return component
    .normalize("NFC")
    .toLowerCase()
    .replace(/[. ]+$/, "");
}

/** True when a component names the git directory on some file system. */
export function isGitComponent(component: string): boolean {
  const f = folded(component);
  return f === ".git" || /^git~\d+$/.test(f);
}

/** Repository files the tools never write (repo-relative POSIX). */
export interface ProtectedPaths {
  ledger: string;
  archive: string;
  allowlist: string;
}

const foldPath = (p: string): string =>
  p
    .split("/")
    .filter((c) => c !== "" && c !== ".")
    .map(folded)
    .join("/");

const within = (rel: string, dir: string): boolean => dir.length > 0 && (rel === dir || rel.startsWith(`${dir}/`));

/**
 * Why `rel` (repo-relative POSIX, "" for the root) may not be read (`write: false`)
 * or written (`write: true`) by a workspace tool, or null when it may.
 */
export function protectedReason(rel: string, paths: ProtectedPaths, write: boolean): string | null {
  if (rel.split("/").some(isGitComponent)) return `${rel}: .git/ is never read or written by the workspace tools`;
  if (!write) return null;
  const f = foldPath(rel);
  if (f === "") return "the repository root is not a file";
  if (within(f, foldPath(paths.ledger))) return `${rel}: the evidence ledger is written only by the tools themselves (one line per request)`;
  if (within(f, foldPath(paths.archive)))
    return `${rel}: the archive (${paths.archive}/) keeps overwritten versions and is never written by the tools' callers`;
  if (within(f, foldPath(paths.allowlist))) return `${rel}: the command allowlist is edited by people, not through the workspace tools`;
  if (within(f, ".notarai/config.yaml"))
    return `${rel}: the configuration (which names the allowlist and the test and build commands) is edited by people, not through the workspace tools`;
  if (within(f, ".notarai/.cache")) return `${rel}: .notarai/.cache/ holds the reconciliation cache and the tools' locks`;
  if (f.endsWith(".noma.patches"))
    return (
      `${rel}: a transcript is appended only by the patch engine, one record per op (the MCP tool patch_block, or \`noma-reconcile patch\` on the ` +
      `command line)`
    );
  return null;
}
