/**
 * `mark_reconciled`: record that files were reconciled at their current
 * content. With specs, for those specs only; without, for every spec that
 * governs each file (never globally: reconciling spec A does not reconcile a
 * shared file for spec B). NotarAI's `file_cache` row is updated too.
 *
 * Each path given is, after containment in the repository (outside: an error):
 *  - a file: marked when a spec governs it (governance is over the files git
 *    knows); otherwise it is reported in `not_marked` with the reason (no spec
 *    governs it, git ignores it, an audit record, …);
 *  - a directory (`.` for the whole repository): every governed file under it
 *    (those git knows) is marked; a directory with none is reported in `not_marked`;
 *  - a path that does not exist: skipped and listed in `deleted` when git knows it
 *    (its index or HEAD's history: a file deleted, as `get_spec_diff` lists them,
 *    has nothing to record), else an error (`path-not-found`) — nothing is marked.
 * Everything is decided before anything is written; the records are written in
 * one write of the cache, under its lock. `dryRun` writes nothing.
 */
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { PathContainment } from "../fsx/contain-path.js";
import { writeCache } from "../cache/write-cache.js";
import { cleanBlobIds, currentHashes, statPaths } from "../cache/current-hashes.js";
import { knownToHistory } from "../git/known-to-history.js";
import { readWorktreeStatus, type WorktreeEntry } from "../git/read-worktree-status.js";
import { AUDIT_DESCRIPTIONS } from "../governance/audit-paths.js";
import { isInternalPath } from "../governance/governance.js";
import { loadSpecContext } from "./load-spec-context.js";
import { readReconciliation } from "./read-reconciliation.js";
import { persistMemo, repoPath, requireSpec, type SpecContext, type ToolOptions } from "./reconcile-context.js";
import { ReconcileError } from "./reconcile-error.js";

export interface MarkReconciledInput {
  /** Repository-relative (or absolute, inside the repository) paths of files or directories. */
  files: readonly string[];
  /** Mark for this spec only. */
  specPath?: string;
  /** Mark for these specs only (with `specPath`, all of them). */
  specPaths?: readonly string[];
  /** Decide and report, write nothing. */
  dryRun?: boolean;
}

export interface MarkedForSpec {
  spec_path: string;
  /** Files recorded (or, in a dry run, that would be) as reconciled for the spec, sorted. */
  files: string[];
}

export interface NotMarked {
  /** As given (repository-relative; a directory ends with `/`). */
  path: string;
  /** Why nothing was recorded for it. */
  reason: string;
}

export interface MarkReconciledResult {
  /** Files recorded (NotarAI's count; a file marked for two specs counts once). */
  updated: number;
  /** Per spec, in spec-path order: the files marked for it. */
  by_spec: MarkedForSpec[];
  /** Paths given that nothing was recorded for, with the reason. */
  not_marked: NotMarked[];
  /** Paths given that no longer exist but git knows (deleted): nothing to record. */
  deleted: string[];
  dry_run: boolean;
}

/** The specs a mark is for (`null`: every spec governing each file), checked to exist. */
export function selectedSpecs(ctx: SpecContext, input: Pick<MarkReconciledInput, "specPath" | "specPaths">): string[] | null {
  const given = [...(input.specPath !== undefined ? [input.specPath] : []), ...(input.specPaths ?? [])];
  if (given.length === 0) return null;
  return [...new Set(given.map((s) => requireSpec(ctx, s).path))].sort();
}

type Kind = "file" | "dir" | "missing";

function kindOf(root: string, rel: string): Kind {
  if (rel === "") return "dir";
  try {
    return lstatSync(join(root, rel)).isDirectory() ? "dir" : "file";
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return "missing";
    throw e;
  }
}

/** Whether something other than a file, link or directory is at `rel` (a FIFO, a socket, a device). */
function isSpecialFile(root: string, rel: string): boolean {
  try {
    const st = lstatSync(join(root, rel));
    return !st.isFile() && !st.isSymbolicLink() && !st.isDirectory();
  } catch {
    return false; // nothing there: the caller's other reasons apply
  }
}

const under = (dir: string, path: string): boolean => dir === "" || path.startsWith(`${dir}/`);

/** Why `path` (a file git lists, or not) is governed by none of `only` (or no spec). */
function whyNotGoverned(ctx: SpecContext, path: string, entry: WorktreeEntry | undefined, only: readonly string[] | null): string {
  if (isInternalPath(path)) return "the tool's own state (snapshot or cache), never governed";
  const audit = ctx.governance.auditKind(path);
  if (audit !== null) return `${AUDIT_DESCRIPTIONS[audit]}: a record the tools keep for audit, never governed`;
  if (entry === undefined)
    return isSpecialFile(ctx.root, path)
      ? "it is not a regular file (a FIFO, a socket or a device): git tracks only files and links"
      : "git ignores it, and specs govern only the files git knows";
  if (ctx.governance.isExcluded(path)) return "excluded by the system spec";
  if (only !== null && ctx.governance.governorsOf(path).length > 0) return `${only.join(", ")} ${only.length === 1 ? "does" : "do"} not govern it`;
  return "no spec governs it";
}

/** Mark the given files and directories (see the module comment). */
export async function markReconciled(root: string, input: MarkReconciledInput, options: ToolOptions = {}): Promise<MarkReconciledResult> {
  const ctx = loadSpecContext(root, options);
  return markInContext(ctx, input, options);
}

/** `markReconciled` with the spec context already loaded. */
export async function markInContext(ctx: SpecContext, input: MarkReconciledInput, options: ToolOptions = {}): Promise<MarkReconciledResult> {
  const root = ctx.root;
  const contained = new PathContainment(root);
  const paths = [...new Set(input.files.map((f) => repoPath(root, f, contained)))].sort();
  const only = selectedSpecs(ctx, input);
  const dryRun = input.dryRun === true;

  const kinds = new Map(paths.map((p) => [p, kindOf(root, p)]));
  // Git's view: of the whole repository when `.` is asked for, else of the paths (a directory's files included).
  const status = paths.includes("") ? readWorktreeStatus(root) : readWorktreeStatus(root, paths);

  const deleted: string[] = [];
  const missing = paths.filter((p) => kinds.get(p) === "missing");
  const unknown: string[] = [];
  const inHistory = knownToHistory(
    root,
    missing.filter((p) => status.get(p) === undefined && ![...status.keys()].some((k) => under(p, k))),
  );
  for (const p of missing) {
    const known = status.get(p) !== undefined || [...status.keys()].some((k) => under(p, k)) || inHistory.has(p);
    (known ? deleted : unknown).push(p);
  }
  if (unknown.length > 0) {
    const them = unknown.length === 1 ? "it" : "them";
    throw new ReconcileError(
      "path-not-found",
      `${unknown.join(", ")}: no such file or directory, and git has never known ${them} (a typo?); nothing was marked`,
    );
  }

  const governorsOf = new Map<string, string[]>();
  const notMarked: NotMarked[] = [];
  const specsOf = (p: string): string[] =>
    ctx.governance
      .governorsOf(p)
      .map((g) => g.spec_path)
      .filter((s) => only === null || only.includes(s));
  for (const p of paths) {
    const kind = kinds.get(p);
    if (kind === "file") {
      const entry = status.get(p);
      const specs = entry === undefined ? [] : specsOf(p);
      if (specs.length === 0) notMarked.push({ path: p, reason: whyNotGoverned(ctx, p, entry, only) });
      else governorsOf.set(p, specs);
    } else if (kind === "dir") {
      let found = 0;
      for (const [f, e] of status) {
        if (e.deleted || !under(p, f)) continue;
        const specs = specsOf(f);
        if (specs.length === 0) continue;
        governorsOf.set(f, specs);
        found++;
      }
      if (found === 0)
        notMarked.push({
          path: p === "" ? "./" : `${p}/`,
          reason:
            only !== null
              ? `${only.join(", ")} ${only.length === 1 ? "governs" : "govern"} no file under it that git knows`
              : "no spec governs a file under it that git knows",
        });
    }
  }

  const files = [...governorsOf.keys()].sort();
  const rec = await readReconciliation(root, { reconciled: false, blobs: cleanBlobIds(status, files), stats: statPaths(status, files) }, options);
  const current = await currentHashes(root, files, status, { blobHashes: rec.cache.blobHashes, statHashes: rec.cache.statHashes });
  const reconciled: Array<{ spec: string; path: string; hash: string; blob: string | null; mode: string | null }> = [];
  const fileCache: Array<{ path: string; hash: string }> = [];
  const bySpec = new Map<string, string[]>();
  for (const p of files) {
    const hash = current.hashes.get(p) ?? null;
    if (hash === null) {
      // Gone since git listed it, or not a regular file (a symbolic link, a submodule).
      if (kinds.get(p) === "file") notMarked.push({ path: p, reason: "not a regular file (or removed while marking)" });
      continue;
    }
    const blob = current.blobs.get(p) ?? null;
    const mode = blob !== null ? (status.get(p)?.mode ?? null) : null;
    for (const spec of governorsOf.get(p)!) {
      reconciled.push({ spec, path: p, hash, blob, mode });
      let list = bySpec.get(spec);
      if (list === undefined) bySpec.set(spec, (list = []));
      list.push(p);
    }
    fileCache.push({ path: p, hash });
  }
  if (!dryRun) {
    if (reconciled.length > 0) {
      const w = await writeCache(root, { reconciled, fileCache, blobHashes: current.newBlobHashes, statHashes: current.newStatHashes, seed: rec.seed });
      if (w.warning !== null) options.onWarning?.(w.warning);
    } else {
      await persistMemo(root, rec.seed, { blobHashes: current.newBlobHashes, statHashes: current.newStatHashes }, options);
    }
  }
  return {
    updated: fileCache.length,
    by_spec: [...bySpec].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([spec_path, list]) => ({ spec_path, files: list })),
    not_marked: notMarked,
    deleted,
    dry_run: dryRun,
  };
}
