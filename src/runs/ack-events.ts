/** A step's acknowledgements (reconciled.json) recorded with their hashes, as run events, merged over the run's earlier ones. */
import type { ReconciledAck } from "./agent-protocol.js";
import type { Acknowledgement } from "./agents/builtin-check.js";
import type { EventSpec } from "./commit-step.js";
import { mergeAcknowledgements, recordAcknowledgements } from "./record-acknowledgements.js";
import type { RunContext } from "./run-context.js";

export async function ackEvents(ctx: RunContext, step: number, acks: readonly ReconciledAck[]): Promise<{ events: EventSpec[]; merged: Acknowledgement[] }> {
  const r = await recordAcknowledgements(ctx.workspace, step, acks);
  const events: EventSpec[] = [];
  if (r.recorded.length > 0)
    events.push({
      type: "drift_acknowledged",
      message: `step ${step} acknowledged ${r.recorded.length} file${r.recorded.length === 1 ? "" : "s"}: ${r.recorded.map((a) => a.path).join(", ")}`,
      data: { step_index: step, acks: r.recorded },
    });
  if (r.ignored.length > 0)
    events.push({
      type: "acknowledgement_ignored",
      message: `ignored: ${r.ignored.map((i) => `${i.path} (${i.reason})`).join("; ")}`,
      data: { step_index: step, ignored: r.ignored },
    });
  return { events, merged: mergeAcknowledgements(ctx.acks, r.recorded) };
}
