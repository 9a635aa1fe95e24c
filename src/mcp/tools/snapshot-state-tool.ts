/** MCP `snapshot_state` over the library's `snapshotState`. */
import { snapshotState, type SnapshotStateResult } from "../../reconcile/snapshot-state.js";
import { requireRepo, warningLog, type ToolContext } from "../tool-context.js";

export async function snapshotStateTool(_args: Record<string, never>, ctx: ToolContext): Promise<SnapshotStateResult> {
  return snapshotState(requireRepo(ctx), warningLog(ctx));
}
