/**
 * MCP `run_status` (read-only) over the library's `runStatus`: one run of the
 * loop in full — the run a coding agent is part of by default (the run of
 * `mcp --step`, else `NORMA_RUN_ID` the server inherits from the agent the
 * loop started), else the newest.
 */
import { runStatus, type RunStatusResult } from "../../runs/list-runs.js";
import type { ToolContext } from "../tool-context.js";
import { ToolFailure } from "../tool-result.js";

export async function runStatusTool(args: { run_id?: string; events_limit?: number }, ctx: ToolContext): Promise<RunStatusResult> {
  const fromEnv = process.env["NORMA_RUN_ID"];
  const id = args.run_id ?? ctx.agentStep?.runId ?? (fromEnv !== undefined && fromEnv !== "" ? fromEnv : undefined);
  const r = await runStatus(ctx.runsRoot ?? ctx.root, id, args.events_limit !== undefined ? { eventsLimit: args.events_limit } : {});
  if (r === null)
    throw new ToolFailure(
      id !== undefined
        ? `no run ${id} in .norma/norma.db (run_list lists the runs)`
        : "no runs yet in .norma/norma.db (`noma-reconcile run --spec <spec>` starts one)",
    );
  return r;
}
