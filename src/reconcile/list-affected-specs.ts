/**
 * `list_affected_specs`: which specs govern files changed on this branch.
 * Changed files = merge-base(base, HEAD) … work tree: committed, staged and
 * unstaged changes, untracked files, deleted files and both sides of renames.
 */
import type { MergeBaseOptions } from "../git/merge-base.js";
import type { SpecBehavior } from "../governance/spec-schema.js";
import { loadSpecContext } from "./load-spec-context.js";
import type { ToolOptions } from "./reconcile-context.js";
import { type AffectedScan, startAffectedScan } from "./start-affected-scan.js";

export interface ListAffectedSpecsInput {
  /** Branch (or any commit-ish) to diff against, e.g. "main" or "origin/main". */
  baseBranch: string;
}

/** A changed file that made a spec affected, and how the spec governs it. */
export interface AffectedFile {
  path: string;
  /** The artifact category (`artifacts` key), or "spec" for the spec's own file. */
  category: string;
  /** The glob, as written in the spec, that matched (the spec's own path for its file). */
  glob: string;
}

export interface AffectedSpec {
  spec_path: string;
  /** The changed files it governs (in changed_files order), each with the glob that matched. */
  matched_files: AffectedFile[];
  behaviors: SpecBehavior[];
  constraints: string[];
  invariants: string[];
}

export interface ListAffectedSpecsResult {
  changed_files: string[];
  affected_specs: AffectedSpec[];
}

export interface GitToolOptions extends ToolOptions {
  /** Shallow-clone deepening (see `findMergeBase`). */
  mergeBase?: MergeBaseOptions;
}

export interface ListAffectedSpecsOptions extends GitToolOptions {
  /** The scan, already started for this root and base (`startAffectedScan`); started here otherwise. */
  scan?: AffectedScan;
}

export async function listAffectedSpecs(root: string, input: ListAffectedSpecsInput, options: ListAffectedSpecsOptions = {}): Promise<ListAffectedSpecsResult> {
  // The specs load while git scans the work tree (killed if loading them fails).
  const given = options.scan;
  const usable = given !== undefined && given.root === root && given.baseBranch === input.baseBranch;
  if (!usable) given?.abort.abort();
  const { abort, changing } = usable ? given : startAffectedScan(root, input.baseBranch, options.mergeBase);
  let ctx: ReturnType<typeof loadSpecContext>;
  try {
    ctx = loadSpecContext(root, options);
  } catch (e) {
    abort.abort();
    throw e;
  }
  const changes = await changing;
  const affected = new Map<string, AffectedFile[]>();
  for (const c of changes) {
    for (const g of ctx.governance.governorsOf(c.path)) {
      let files = affected.get(g.spec_path);
      if (files === undefined) affected.set(g.spec_path, (files = []));
      files.push({ path: c.path, category: g.category, glob: g.glob });
    }
  }
  return {
    changed_files: changes.map((c) => c.path),
    affected_specs: ctx.specs.files
      .filter((f) => affected.has(f.path))
      .map((f) => ({
        spec_path: f.path,
        matched_files: affected.get(f.path) ?? [],
        behaviors: f.data?.behaviors ?? [],
        constraints: f.data?.constraints ?? [],
        invariants: f.data?.invariants ?? [],
      })),
  };
}
