/**
 * MCP `get_changed_artifacts` over the library's `getChangedArtifacts`. Its
 * warnings (an artifact_type the spec does not have, a cold cache) go to the
 * log and, when there are any, into `warnings` beside NotarAI's
 * `changed_artifacts` (an extra field its clients ignore).
 */
import { getChangedArtifacts, type ChangedArtifactsResult } from "../../reconcile/get-changed-artifacts.js";
import { requireRepo, warningLog, type ToolContext } from "../tool-context.js";

export async function getChangedArtifactsTool(
  args: { spec_path: string; artifact_type?: string },
  ctx: ToolContext,
): Promise<ChangedArtifactsResult & { warnings?: string[] }> {
  const warnings: string[] = [];
  const log = warningLog(ctx).onWarning;
  const r = await getChangedArtifacts(
    requireRepo(ctx),
    { specPath: args.spec_path, ...(args.artifact_type !== undefined ? { artifactType: args.artifact_type } : {}) },
    {
      onWarning: (m) => {
        warnings.push(m);
        log(m);
      },
    },
  );
  return warnings.length > 0 ? { ...r, warnings } : r;
}
