/**
 * MCP `mark_reconciled` over the library's `markReconciled`: NotarAI's `{updated}`, plus
 * `not_marked` and `deleted` when there are any (a path that does not exist and git never
 * knew is an `isError` result, as the CLI's exit 2: nothing is marked).
 */
import { markReconciled } from "../../reconcile/mark-reconciled.js";
import { requireRepo, warningLog, type ToolContext } from "../tool-context.js";

export interface MarkReconciledToolResult {
  updated: number;
  not_marked?: Array<{ path: string; reason: string }>;
  deleted?: string[];
}

export async function markReconciledTool(args: { files: string[]; spec_path?: string }, ctx: ToolContext): Promise<MarkReconciledToolResult> {
  const r = await markReconciled(
    requireRepo(ctx),
    { files: args.files, ...(args.spec_path !== undefined ? { specPath: args.spec_path } : {}) },
    warningLog(ctx),
  );
  return { updated: r.updated, ...(r.not_marked.length > 0 ? { not_marked: r.not_marked } : {}), ...(r.deleted.length > 0 ? { deleted: r.deleted } : {}) };
}
