/**
 * Repositories for the PR-check tests: a spec governing src/** and docs/**,
 * everything reconciled and snapshotted on main, then a feature branch.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { markReconciled } from "../../../src/reconcile/mark-reconciled.js";
import { snapshotState } from "../../../src/reconcile/snapshot-state.js";
import { git, tempRepo, writeTree, type Tree } from "../../helpers/temp-repo.js";
import { CLAIM, patch, SPEC } from "../staged/fixtures.js";

export const SPEC_PATH = ".notarai/api.spec.yaml";

export function commitAll(repo: string, message: string): string {
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-qm", message]);
  return git(repo, ["rev-parse", "HEAD"]).trim();
}

/** main: spec, src/a.ts, src/b.ts, docs/plan.noma (+ extra), all reconciled in a committed snapshot; then `git checkout -b feature`. */
export async function ciRepo(extra: Tree = {}): Promise<string> {
  const repo = tempRepo({ [SPEC_PATH]: SPEC, "src/a.ts": "a\n", "src/b.ts": "b\n", "docs/plan.noma": CLAIM, "README.md": "ungoverned\n", ...extra });
  await reconcileAll(repo);
  commitAll(repo, "snapshot");
  git(repo, ["checkout", "-qb", "feature"]);
  return repo;
}

/** Mark every governed file reconciled at its current content and write the snapshot (not committed). */
export async function reconcileAll(repo: string): Promise<void> {
  const files = git(repo, ["ls-files", "-z", "-co", "--exclude-standard", "src", "docs"])
    .split("\0")
    .filter((f) => f.length > 0);
  await markReconciled(repo, { files });
  await snapshotState(repo);
}

/**
 * What `mark-reconciled FILE…` (exit 0: every file marked) and, with `snapshot`, `state snapshot`
 * do, in process: for tests whose subject is another command and which only need that state.
 */
export async function markInProcess(repo: string, files: string[], options: { snapshot?: boolean } = {}): Promise<void> {
  expect((await markReconciled(repo, { files })).not_marked).toEqual([]);
  if (options.snapshot === true) await snapshotState(repo);
}

/**
 * ciRepo, then two patches of docs/plan.noma merged into main (reconciled, committed), and
 * `feature` re-created from main. Returns the document and transcript as they were after the
 * first patch, for tests that rewrite the committed history.
 */
export async function twoPatchesOnMain(): Promise<{ repo: string; afterFirst: string; firstLine: string }> {
  const repo = await ciRepo();
  patch(repo, "docs/plan.noma", [0.6]);
  const afterFirst = readFileSync(join(repo, "docs/plan.noma"), "utf8");
  const firstLine = readFileSync(join(repo, "docs/plan.noma.patches"), "utf8");
  patch(repo, "docs/plan.noma", [0.7]);
  await reconcileAll(repo);
  git(repo, ["checkout", "-q", "main"]);
  git(repo, ["merge", "-q", "feature"]);
  commitAll(repo, "two patches on main");
  git(repo, ["checkout", "-q", "-B", "feature"]);
  return { repo, afterFirst, firstLine };
}

export { writeTree };
