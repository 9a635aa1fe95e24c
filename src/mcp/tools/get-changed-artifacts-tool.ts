/** MCP `get_changed_artifacts` over the library's `getChangedArtifacts`. */
import { getChangedArtifacts, type ChangedArtifactsResult } from "../../reconcile/get-changed-artifacts.js";
import { requireRepo, warningLog, type ToolContext } from "../tool-context.js";

export async function getChangedArtifactsTool(args: { spec_path: string; artifact_type?: string }, ctx: ToolContext): Promise<ChangedArtifactsResult> {
  return getChangedArtifacts(requireRepo(ctx), { specPath: args.spec_path, ...(args.artifact_type !== undefined ? { artifactType: args.artifact_type } : {}) }, warningLog(ctx));
}
