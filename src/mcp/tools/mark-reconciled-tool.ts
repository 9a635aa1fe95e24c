/** MCP `mark_reconciled` over the library's `markReconciled`. */
import { markReconciled, type MarkReconciledResult } from "../../reconcile/mark-reconciled.js";
import { requireRepo, warningLog, type ToolContext } from "../tool-context.js";

export async function markReconciledTool(args: { files: string[]; spec_path?: string }, ctx: ToolContext): Promise<MarkReconciledResult> {
  return markReconciled(requireRepo(ctx), { files: args.files, ...(args.spec_path !== undefined ? { specPath: args.spec_path } : {}) }, warningLog(ctx));
}
