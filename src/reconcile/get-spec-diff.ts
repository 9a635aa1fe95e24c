/**
 * `get_spec_diff`: the diff of the files one spec governs, against the
 * merge-base of the base branch and HEAD, minus what is already reconciled.
 *
 * Always returns all eight keys. `files` are governed non-spec files changed
 * versus the base and not reconciled at their current content (deleted files
 * always count); `skipped` are changed but reconciled; `spec_changes` carry
 * the full text of changed, unreconciled governed spec files; `system_spec` is
 * the system spec's text whenever `spec_changes` is non-empty (only `{path}`
 * when it is itself among them); binary files (git's detection for tracked
 * changes, NUL bytes for new files) are listed in `binary_changes` and kept out
 * of `diff`; `file_categories` gives each listed file's artifact category.
 */
import { readRegularFile } from "../fsx/read-regular-file.js";
import { decodeText } from "../fsx/utf8-text.js";
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { cleanBlobIds, currentHashes, statPaths } from "../cache/current-hashes.js";
import type { BranchDiff } from "../git/branch-diff.js";
import { branchWorktreeStatus } from "../git/branch-worktree-status.js";
import { foldChanges } from "../git/changed-files.js";
import { diffNumstat, diffPatch } from "../git/diff-patch.js";
import { splitNul } from "../git/exec-git.js";
import { BINARY_SNIFF_BYTES, isBinaryContent } from "../git/is-binary-content.js";
import { findMergeBase } from "../git/merge-base.js";
import { newFileDiff } from "../git/new-file-diff.js";
import { compileExcludePattern, isSpecPath } from "../governance/glob.js";
import type { GitToolOptions } from "./list-affected-specs.js";
import { loadSpecContext } from "./load-spec-context.js";
import { readReconciliation } from "./read-reconciliation.js";
import { isReconciled, persistMemo, requireSpec } from "./reconcile-context.js";
import { type SpecDiffScans, startSpecDiffScans } from "./start-spec-diff-scans.js";

export interface GetSpecDiffInput {
  /** Repository-relative path of the spec file. */
  specPath: string;
  /** Branch (or commit-ish) to diff against. */
  baseBranch: string;
  /** Globs to leave out (a pattern without "/" matches file names at any depth: "*.lock"). */
  excludePatterns?: readonly string[];
  /** Diff every governed changed file regardless of the cache (the cache is left intact). */
  bypassCache?: boolean;
}

export interface SpecChange {
  path: string;
  content: string;
}

export interface SpecDiffResult {
  diff: string;
  files: string[];
  skipped: string[];
  excluded: string[];
  spec_changes: SpecChange[];
  system_spec: { path: string; content?: string } | null;
  binary_changes: string[];
  file_categories: Record<string, string>;
}

/** The file's bytes, or only its first 8000 when those already show it is binary; null if unreadable. */
function readForDiff(abs: string): { bytes: Uint8Array; binary: boolean } | null {
  let fd: number;
  try {
    fd = openSync(abs, "r");
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(BINARY_SNIFF_BYTES);
    const n = readSync(fd, head, 0, head.length, 0);
    if (isBinaryContent(head.subarray(0, n))) return { bytes: head.subarray(0, n), binary: true };
    return { bytes: readFileSync(abs), binary: false };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

export interface GetSpecDiffOptions extends GitToolOptions {
  /** git's scans, already started for this root and base (`startSpecDiffScans`); started here otherwise. */
  scans?: SpecDiffScans;
}

export async function getSpecDiff(root: string, input: GetSpecDiffInput, options: GetSpecDiffOptions = {}): Promise<SpecDiffResult> {
  // git's two passes over the work tree run at once, beside this process's own work: the walk
  // for untracked files needs no merge-base, so it starts first; the one diff against the
  // merge-base (branch-diff.ts) answers what changed, which files are clean, which are binary
  // and their patches. The merge-base first when it resolves at once (the diff then runs while
  // the specs load); its errors, and a shallow clone's deepening, still come after the spec's
  // own. An error on the way kills whatever is still running.
  const given = options.scans;
  const scans = given !== undefined && given.root === root && given.baseBranch === input.baseBranch ? given : startSpecDiffScans(root, input.baseBranch);
  if (scans !== given) given?.abort.abort();
  const { abort } = scans;
  try {
    const quick = scans.quickMergeBase;
    const ctx = loadSpecContext(root, options);
    const spec = requireSpec(ctx, input.specPath, { requireData: true });
    const mergeBase = quick ?? findMergeBase(root, input.baseBranch, options.mergeBase).mergeBase;
    const branchJob = scans.branchDiff(mergeBase);
    const excludedPatterns = [...(input.excludePatterns ?? [])];
    const excludeTests = excludedPatterns.map(compileExcludePattern);
    const bypass = input.bypassCache === true;
    const [branch, untrackedList] = await Promise.all([branchJob, scans.untracked.then((b) => splitNul(b.toString("utf8")))]);
    const changes = foldChanges(branch.raw, untrackedList);

    const categoryOf = new Map<string, string>();
    const governed = changes.filter((c) => {
      if (excludeTests.some((t) => t(c.path))) return false;
      const g = ctx.governance.governs(spec.path, c.path);
      if (g === null) return false;
      categoryOf.set(c.path, g.category);
      return true;
    });
    const paths = governed.map((c) => c.path);

    const status = branchWorktreeStatus(branch.raw, await scans.skipWorktree);
    const rec = await readReconciliation(root, { specs: [spec.path], paths, blobs: cleanBlobIds(status, paths), stats: statPaths(status, paths) }, options);
    const current = await currentHashes(root, paths, status, { blobHashes: rec.cache.blobHashes, statHashes: rec.cache.statHashes });

    const files: string[] = [];
    const skipped: string[] = [];
    const specChanges: SpecChange[] = [];
    for (const c of governed) {
      const hash = current.hashes.get(c.path) ?? null;
      const reconciled = !bypass && isReconciled(rec.cache, spec.path, c.path, hash);
      if (isSpecPath(c.path)) {
        if (hash === null || reconciled) continue;
        const loaded = ctx.specs.byPath.get(c.path);
        specChanges.push({ path: c.path, content: loaded?.text ?? decodeText(readRegularFile(join(root, c.path), c.path), c.path) });
      } else if (reconciled) {
        skipped.push(c.path);
      } else {
        files.push(c.path);
      }
    }

    const untracked = new Set(governed.filter((c) => c.kind === "untracked").map((c) => c.path));
    const { binary, diff: trackedDiff } = trackedChanges(
      root,
      mergeBase,
      branch,
      files.filter((f) => !untracked.has(f)),
    );
    let newFiles = "";
    for (const f of files) {
      if (!untracked.has(f)) continue;
      const read = readForDiff(join(root, f));
      if (read === null) continue;
      if (read.binary) {
        binary.add(f);
        continue;
      }
      let executable = false;
      try {
        executable = (statSync(join(root, f)).mode & 0o111) !== 0;
      } catch {
        /* gone meanwhile */
      }
      newFiles += newFileDiff(f, read.bytes, executable);
    }
    const diff = trackedDiff + newFiles;

    const system = ctx.specs.system;
    let systemSpec: SpecDiffResult["system_spec"] = null;
    if (specChanges.length > 0 && system !== null) {
      systemSpec = specChanges.some((s) => s.path === system.path) ? { path: system.path } : { path: system.path, content: system.text };
    }

    // An older schema is migrated by this write even when the memo learnt nothing.
    await persistMemo(root, rec.seed, { blobHashes: current.newBlobHashes, statHashes: current.newStatHashes }, options, rec.cache.outdated);
    return {
      diff,
      files,
      skipped,
      excluded: excludedPatterns,
      spec_changes: specChanges,
      system_spec: systemSpec,
      binary_changes: files.filter((f) => binary.has(f)),
      file_categories: Object.fromEntries(files.map((f) => [f, categoryOf.get(f)!])),
    };
  } finally {
    // Nothing is left running (after success every process has already exited).
    abort.abort();
  }
}

/**
 * The binary paths among `tracked` (git's detection; both sides of a binary rename) and the
 * patch of those that are not, as `git diff <commit> -- <tracked>` and its numstat print
 * them: cut from the branch diff when that is exactly what git would print for these paths
 * alone, else asked of git with the paths as pathspecs. It is, unless a rename pairs one of
 * them with a path outside the set, git skipped rename detection for its rename limit, or the
 * sections could not be matched to the records: then the pairing git finds depends on which
 * paths it is given.
 */
function trackedChanges(root: string, commit: string, branch: BranchDiff, tracked: readonly string[]): { binary: Set<string>; diff: string } {
  const binary = new Set<string>();
  if (tracked.length === 0) return { binary, diff: "" };
  const set = new Set(tracked);
  const crosses = branch.raw.some((e) => e.oldPath !== undefined && set.has(e.oldPath) !== set.has(e.path));
  if (branch.patches === null || branch.renameLimited || crosses) {
    for (const e of diffNumstat(root, commit, tracked)) {
      if (!e.binary) continue;
      binary.add(e.path);
      if (e.oldPath !== undefined) binary.add(e.oldPath);
    }
    return {
      binary,
      diff: diffPatch(
        root,
        commit,
        tracked.filter((f) => !binary.has(f)),
      ),
    };
  }
  for (const e of branch.numstat) {
    if (!e.binary || !set.has(e.path)) continue;
    binary.add(e.path);
    if (e.oldPath !== undefined) binary.add(e.oldPath);
  }
  let diff = "";
  branch.raw.forEach((e, k) => {
    if (set.has(e.path) && !binary.has(e.path) && (e.oldPath === undefined || !binary.has(e.oldPath))) diff += branch.patches![k]!;
  });
  return { binary, diff };
}
