/** MCP `get_spec_diff` over the library's `getSpecDiff`. */
import { getSpecDiff, type SpecDiffResult } from "../../reconcile/get-spec-diff.js";
import { requireRepo, warningLog, type ToolContext } from "../tool-context.js";

export interface GetSpecDiffArgs {
  spec_path: string;
  base_branch: string;
  exclude_patterns?: string[];
  bypass_cache?: boolean;
}

export async function getSpecDiffTool(args: GetSpecDiffArgs, ctx: ToolContext): Promise<SpecDiffResult> {
  return getSpecDiff(
    requireRepo(ctx),
    {
      specPath: args.spec_path,
      baseBranch: args.base_branch,
      ...(args.exclude_patterns !== undefined ? { excludePatterns: args.exclude_patterns } : {}),
      ...(args.bypass_cache !== undefined ? { bypassCache: args.bypass_cache } : {}),
    },
    { ...warningLog(ctx), mergeBase: { onDeepen: (n) => ctx.log(`shallow clone: fetching ${n} more commits to find the merge-base`) } },
  );
}
