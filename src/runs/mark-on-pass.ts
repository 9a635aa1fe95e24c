/**
 * On PASS, unless the run was started with `--no-mark`: the run's specs' drift
 * files are marked reconciled in the hash cache, per spec (with the built-in
 * check, exactly the contents the run acknowledged), and the snapshot is
 * written — each recorded as an event.
 */
import { existsSync } from "node:fs";
import { abs } from "../layout/norma-layout.js";
import { SNAPSHOT_PATH } from "../governance/governance.js";
import type { EventSpec } from "./commit-step.js";
import { pendingDrift } from "./pending-drift.js";
import type { RunContext } from "./run-context.js";

export async function markOnPass(ctx: RunContext): Promise<EventSpec[]> {
  const events: EventSpec[] = [];
  if (!ctx.mark) return [{ type: "marking_skipped", message: "PASS: the governed files were not marked reconciled (--no-mark)" }];
  if (ctx.specs.length === 0) return [];
  const { markReconciled } = await import("../reconcile/mark-reconciled.js");
  const { snapshotState } = await import("../reconcile/snapshot-state.js");
  const builtin = ctx.config.agents.check?.type === "builtin";
  const acks = new Map(ctx.acks.map((a) => [`${a.spec}\0${a.path}`, a]));
  for (const spec of ctx.specs) {
    const pending = await pendingDrift(ctx.workspace, spec, { onWarning: ctx.onWarning });
    const files = pending.filter((p) => p.hash !== null && (!builtin || acks.get(`${spec}\0${p.path}`)?.hash === p.hash)).map((p) => p.path);
    const skipped = pending.filter((p) => !files.includes(p.path)).map((p) => p.path);
    if (files.length > 0) {
      const r = await markReconciled(ctx.workspace, { files, specPath: spec }, { onWarning: ctx.onWarning });
      events.push({
        type: "marked_reconciled",
        message: `${spec}: marked ${r.updated} file${r.updated === 1 ? "" : "s"} reconciled: ${files.join(", ")}`,
        data: { spec, files, updated: r.updated },
      });
    }
    if (skipped.length > 0)
      events.push({
        type: "mark_skipped",
        message: `${spec}: not marked (changed after the check, or deleted): ${skipped.join(", ")}`,
        data: { spec, files: skipped },
      });
  }
  // Nothing newly reconciled: the committed snapshot already says all there is; rewriting it would only churn its HEAD and time.
  if (!events.some((e) => e.type === "marked_reconciled") && existsSync(abs(ctx.workspace, SNAPSHOT_PATH))) {
    events.push({ type: "snapshot_unchanged", message: `nothing was newly reconciled; ${SNAPSHOT_PATH} left as it is` });
    return events;
  }
  const snap = await snapshotState(ctx.workspace, { onWarning: ctx.onWarning });
  events.push({
    type: "snapshot_written",
    message: `wrote .notarai/reconciliation_state.json: ${snap.files} file and ${snap.specs} spec fingerprints`,
    data: { ...snap, state_path: ".notarai/reconciliation_state.json" },
  });
  return events;
}
