/**
 * How much drift is still open in a run's worktree: for each of its specs, the
 * governed files whose content is neither reconciled (hash cache, snapshot) nor
 * acknowledged by the run at that very content — what the built-in check's drift
 * criterion counts. The measure the stalled-drift budget watches (stuck-agent.ts).
 */
import { pendingDrift, type PendingFile } from "./pending-drift.js";
import type { RunContext } from "./run-context.js";

/**
 * `known`: the answers the built-in check just gave to the same question of the same work tree (BuiltinCheckResult.drift:
 * nothing ran in between that changes it); a spec without one is asked here. Two git processes and a drift
 * question fewer per FAIL; test/runs/open-drift.test.ts holds both ways to the same count.
 */
export async function openDriftCount(
  ctx: Pick<RunContext, "workspace" | "specs" | "acks" | "onWarning">,
  known: ReadonlyMap<string, readonly PendingFile[]> | null = null,
): Promise<number> {
  const acked = new Map(ctx.acks.map((a) => [`${a.spec}\0${a.path}`, a.hash]));
  let open = 0;
  for (const spec of ctx.specs)
    for (const p of known?.get(spec) ?? (await pendingDrift(ctx.workspace, spec, { onWarning: ctx.onWarning }))) {
      const key = `${spec}\0${p.path}`;
      if (!acked.has(key) || acked.get(key) !== p.hash) open++;
    }
  return open;
}
