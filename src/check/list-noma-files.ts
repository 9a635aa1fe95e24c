/**
 * Which files `check` looks at: with no paths, every `.noma` document,
 * `.noma.yml` book manifest, capability sidecar, `.noma.patches` transcript
 * and `.notarai/**\/*.spec.yaml` spec git tracks; with paths, those files,
 * and for a directory the same kinds git knows under it (tracked or
 * untracked, not ignored).
 */
import { type ErrorKind, NomaError } from "../errors/noma-error.js";
import { listFiles } from "../git/list-files.js";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { containPath } from "../fsx/contain-path.js";
import { checkedPathKind } from "../layout/checked-path.js";
import { fsPath, parseQuotedPath } from "../git/git-path.js";

/** git pathspecs of every kind `check` judges (`*` crosses directories in git pathspecs). */
export const NOMA_PATHSPECS = ["*.noma", "*.noma.yml", "*.noma.yaml", "*.noma.capabilities.yml", "*.noma.patches", ".notarai/*.spec.yaml"];

/** git pathspecs of book manifests. */
export const BOOK_PATHSPECS = ["*.noma.yml", "*.noma.yaml"];

/** Every book manifest under `root`: those git knows (tracked, or untracked and not ignored), or outside a repository those on disk. */
export function listBookManifests(root: string, inRepo: boolean): string[] {
  let found: string[];
  if (inRepo) found = listFiles(root, { untracked: "also", pathspecs: BOOK_PATHSPECS });
  else walk(root, "", (found = []));
  return [...new Set(found.filter((p) => checkedPathKind(p) === "book"))].sort();
}

/** Whether `check` judges a file at `p` (the configuration file is read, not listed). */
export function isNomaPath(p: string): boolean {
  const kind = checkedPathKind(p);
  return kind !== null && kind !== "config";
}

export class MissingPathError extends NomaError {
  static override readonly errorName: string = "MissingPathError";
  static override readonly kind: ErrorKind = "usage";
  constructor(readonly paths: string[]) {
    super("path-not-found", `${paths.join(", ")}: no such file or directory`);
  }
}

function walk(root: string, rel: string, out: string[]): void {
  for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const child = rel.length > 0 ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walk(root, child, out);
    else if (entry.isFile() && isNomaPath(child)) out.push(child);
  }
}

/**
 * @param root repository root (or the working directory outside a repository)
 * @param inRepo whether `root` is a git work tree
 */
export function listNomaFiles(root: string, inRepo: boolean, paths: readonly string[], cwd: string): string[] {
  const found = new Set<string>();
  if (paths.length === 0) {
    if (inRepo) {
      for (const f of listFiles(root, { pathspecs: NOMA_PATHSPECS })) if (isNomaPath(f)) found.add(f);
    } else {
      const out: string[] = [];
      walk(root, "", out);
      for (const f of out) found.add(f);
    }
    return [...found].sort();
  }
  const missing: string[] = [];
  for (const given of paths) {
    // The quoted form reports print for a name that is not UTF-8 names that file (git-path.ts).
    const rel = containPath(parseQuotedPath(given) ?? given, root, cwd);
    const abs = fsPath(root, rel);
    if (!existsSync(abs)) {
      missing.push(given);
      continue;
    }
    if (statSync(abs).isDirectory()) {
      if (inRepo) {
        const spec = rel.length > 0 ? rel : ".";
        const listed = listFiles(root, { untracked: "also", pathspecs: [spec] });
        for (const f of listed) if (isNomaPath(f)) found.add(f);
      } else {
        const out: string[] = [];
        walk(root, rel, out);
        for (const f of out) found.add(f);
      }
    } else {
      found.add(rel);
    }
  }
  if (missing.length > 0) throw new MissingPathError(missing);
  return [...found].sort();
}
