/**
 * How much drift is still open in a run's worktree: for each of its specs, the
 * governed files whose content is neither reconciled (hash cache, snapshot) nor
 * acknowledged by the run at that very content — what the built-in check's drift
 * criterion counts. The measure the stalled-drift budget watches (stuck-agent.ts).
 */
import { pendingDrift } from "./pending-drift.js";
import type { RunContext } from "./run-context.js";

export async function openDriftCount(ctx: Pick<RunContext, "workspace" | "specs" | "acks" | "onWarning">): Promise<number> {
  const acked = new Map(ctx.acks.map((a) => [`${a.spec}\0${a.path}`, a.hash]));
  let open = 0;
  for (const spec of ctx.specs)
    for (const p of await pendingDrift(ctx.workspace, spec, { onWarning: ctx.onWarning })) {
      const key = `${spec}\0${p.path}`;
      if (!acked.has(key) || acked.get(key) !== p.hash) open++;
    }
  return open;
}
