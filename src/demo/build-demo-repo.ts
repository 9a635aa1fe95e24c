/**
 * Build the demo repository in `dir` (see fixtures/demo/README.md): main with
 * specs, code and a handbook, reconciled and snapshotted; a feature branch on
 * which an agent patches the handbook through the patch engine (leaving a
 * transcript) and changes reconciled code, then a hotfix changes code without
 * reconciling it — the one deliberate drift.
 */
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { listFiles } from "../git/list-files.js";
import { ScratchRepository } from "../git/scratch-repository.js";
import { patchDocument } from "../editing/patch-document.js";
import { markReconciled } from "../reconcile/mark-reconciled.js";
import { snapshotState } from "../reconcile/snapshot-state.js";

export const DEMO_DOCUMENT = "docs/billing.noma";

/** Governed files git knows (tracked or not ignored), for mark-reconciled. */
function governedCandidates(dir: string): string[] {
  return listFiles(dir, { untracked: "also", pathspecs: [".notarai", "src", "docs", "README.md"] });
}

export async function buildDemoRepo(dir: string, files: string): Promise<void> {
  const repo = new ScratchRepository(dir, "2026-01-05T09:00:00Z");
  repo.init("main", "noma-reconcile demo", "demo@example.invalid");
  cpSync(join(files, "base"), dir, { recursive: true });
  repo.commitAll("Billing service: specs, code and handbook");
  await markReconciled(dir, { files: governedCandidates(dir) });
  await snapshotState(dir);
  repo.commitAll("Reconcile everything (snapshot)");

  repo.branch("feature");
  const ops = JSON.parse(readFileSync(join(files, "branch", "ops.json"), "utf8")) as unknown[];
  const patched = patchDocument(join(dir, DEMO_DOCUMENT), ops, {
    actor: { kind: "agent", name: "billing-agent", model: "demo" },
    reason: "Document the retry policy",
    root: dir,
    now: new Date("2026-01-05T10:00:00Z"),
  });
  if (patched.outcome.result !== "applied") throw new Error(`demo patch was ${patched.outcome.result}: ${patched.outcome.error?.message ?? ""}`);
  cpSync(join(files, "branch", "src", "billing", "charge.ts"), join(dir, "src", "billing", "charge.ts"));
  await markReconciled(dir, { files: [DEMO_DOCUMENT, `${DEMO_DOCUMENT}.patches`, "src/billing/charge.ts"] });
  await snapshotState(dir);
  repo.commitAll("Retry failed charges; handbook patched by the billing agent (reconciled)");

  cpSync(join(files, "branch", "src", "billing", "refund.ts"), join(dir, "src", "billing", "refund.ts"));
  repo.commitAll("Hotfix: refund fee (not reconciled)");
}
