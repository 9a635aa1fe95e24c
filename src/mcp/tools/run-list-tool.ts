/** MCP `run_list` (read-only) over the library's `listRuns`: the runs in `.norma/norma.db`, newest first. */
import { listRuns, type RunList } from "../../runs/list-runs.js";
import type { ToolContext } from "../tool-context.js";

export async function runListTool(args: { limit?: number }, ctx: ToolContext): Promise<RunList> {
  return listRuns(ctx.runsRoot ?? ctx.root, args.limit !== undefined ? { limit: args.limit } : {});
}
