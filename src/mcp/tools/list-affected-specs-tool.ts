/** MCP `list_affected_specs` over the library's `listAffectedSpecs`. */
import { listAffectedSpecs, type ListAffectedSpecsResult } from "../../reconcile/list-affected-specs.js";
import { requireRepo, warningLog, type ToolContext } from "../tool-context.js";

export async function listAffectedSpecsTool(args: { base_branch: string }, ctx: ToolContext): Promise<ListAffectedSpecsResult> {
  return listAffectedSpecs(
    requireRepo(ctx),
    { baseBranch: args.base_branch },
    { ...warningLog(ctx), mergeBase: { onDeepen: (n) => ctx.log(`shallow clone: fetching ${n} more commits to find the merge-base`) } },
  );
}
