/**
 * Turn a step's `reconciled.json` into acknowledgements the built-in check
 * can rely on: each entry must name a spec of the repository that governs the
 * path (inside the repository); the file's BLAKE3 at this moment is recorded
 * with it, so the acknowledgement holds only while the file keeps that
 * content. Entries that do not qualify are reported, not recorded.
 */
import { PathContainment, PathOutsideRepoError } from "../fsx/contain-path.js";
import { loadSpecContext } from "../reconcile/load-spec-context.js";
import type { ReconciledAck } from "./agent-protocol.js";
import type { Acknowledgement } from "./agents/builtin-check.js";
import { hashPaths } from "./pending-drift.js";

export interface AckOutcome {
  recorded: Acknowledgement[];
  ignored: Array<{ spec: string; path: string; reason: string }>;
}

export async function recordAcknowledgements(root: string, step: number, acks: readonly ReconciledAck[]): Promise<AckOutcome> {
  const out: AckOutcome = { recorded: [], ignored: [] };
  if (acks.length === 0) return out;
  const ctx = loadSpecContext(root);
  const contained = new PathContainment(root);
  const wanted: Array<{ spec: string; path: string; note?: string }> = [];
  for (const a of acks) {
    let spec: string;
    let path: string;
    try {
      spec = contained.contain(a.spec, root);
      path = contained.contain(a.path, root);
    } catch (e) {
      if (e instanceof PathOutsideRepoError) {
        out.ignored.push({ spec: a.spec, path: a.path, reason: "outside the repository" });
        continue;
      }
      throw e;
    }
    if (!ctx.specs.byPath.has(spec)) {
      out.ignored.push({ spec: a.spec, path: a.path, reason: `${spec} is not a spec of this repository` });
      continue;
    }
    if (!ctx.governance.governorsOf(path).some((g) => g.spec_path === spec)) {
      out.ignored.push({ spec: a.spec, path: a.path, reason: `${spec} does not govern ${path}` });
      continue;
    }
    wanted.push({ spec, path, ...(a.note !== undefined ? { note: a.note } : {}) });
  }
  const hashes = await hashPaths(root, [...new Set(wanted.map((w) => w.path))]);
  for (const w of wanted) out.recorded.push({ ...w, hash: hashes.get(w.path) ?? null, step });
  return out;
}

/** Merge new acknowledgements over earlier ones (one per spec and path, the latest wins). */
export function mergeAcknowledgements(earlier: readonly Acknowledgement[], later: readonly Acknowledgement[]): Acknowledgement[] {
  const m = new Map(earlier.map((a) => [`${a.spec}\0${a.path}`, a]));
  for (const a of later) m.set(`${a.spec}\0${a.path}`, a);
  return [...m.values()].sort((a, b) => (a.spec + a.path < b.spec + b.path ? -1 : 1));
}
