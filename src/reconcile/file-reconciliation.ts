/**
 * One file's governance and reconciliation, as an editor shows it: which specs govern it and
 * through which glob (`governs`), and for each of them whether the file's content on disk is
 * the content last marked reconciled for that spec (`changed` asks the same of every file of
 * a spec: the hash cache, seeded from the committed snapshot while it never was). Read-only:
 * nothing is written to the cache. Loads the hash cache's reader and BLAKE3 only when the
 * file is governed.
 */
import { join } from "node:path";
import { hashFile } from "../cache/hash-file.js";
import { loadBlake3 } from "../cache/blake3.js";
import { ANY_SPEC } from "../cache/cache-tables.js";
import type { Governor } from "../governance/governance.js";
import { whichSpecsGovern, type PathState } from "../governance/which-specs-govern.js";
import { readReconciliation } from "./read-reconciliation.js";
import { isReconciled, type SpecContext, type ToolOptions } from "./reconcile-context.js";

export interface SpecReconciliation extends Governor {
  /** The file's content on disk is what was last marked reconciled for this spec. */
  reconciled: boolean;
  /** When it was last marked for this spec (ms since the epoch; 0 for a mark taken from the committed snapshot), or null: never. */
  markedAt: number | null;
}

export interface FileReconciliation {
  path: string;
  /** How git sees the path (an ignored file is governed by no spec). */
  state: PathState;
  /** One entry per governing spec, in spec-path order (empty: not governed). */
  specs: SpecReconciliation[];
}

/**
 * `path` (repository-relative) under `ctx` (the specs and their governance, loaded by the
 * caller: a long-lived process keeps them while the spec files are unchanged).
 */
export async function fileReconciliation(ctx: SpecContext, path: string, options: ToolOptions = {}): Promise<FileReconciliation> {
  const answer = whichSpecsGovern(ctx.root, [path], ctx.governance).paths[0]!;
  const governors = answer.governed_by;
  if (governors.length === 0) return { path: answer.path, state: answer.state, specs: [] };
  const rec = await readReconciliation(ctx.root, { specs: governors.map((g) => g.spec_path), paths: [answer.path] }, { ...options, readOnly: true });
  const hash = answer.state === "absent" ? null : (hashFile(join(ctx.root, answer.path), await loadBlake3())?.blake3 ?? null);
  const specs = governors.map((g) => {
    const rows = [rec.cache.reconciled.get(g.spec_path)?.get(answer.path), rec.cache.reconciled.get(ANY_SPEC)?.get(answer.path)];
    // The mark that holds (own record first), else the latest one.
    const row = rows.find((r) => r !== undefined && r.hash === hash) ?? rows.find((r) => r !== undefined);
    return { ...g, reconciled: isReconciled(rec.cache, g.spec_path, answer.path, hash), markedAt: row !== undefined ? row.updatedAt : null };
  });
  return { path: answer.path, state: answer.state, specs };
}
