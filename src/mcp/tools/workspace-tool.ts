/**
 * The MCP binding of the workspace tools (src/workspace/): open the workspace of the
 * server's repository, run the request through `runWorkspaceTool` (which validates the
 * arguments and records every request in the evidence ledger), and map the NOA body
 * onto an MCP result: a result (a command that exited non-zero included) is
 * `structuredContent` + text — the body's JSON, or for the tools named after the MCP
 * filesystem server's the text it answers with (a file's text, a listing, a diff), or
 * read_media_file's content block; a refusal or failure is `isError: true` whose text is
 * the NOA failure body `{"success":false,"message":…,"code":…}`. The server's
 * `--read-only` and the client's roots shape the workspace opened for each call.
 */
import { recordRefusal, runWorkspaceTool } from "../../workspace/run-workspace-tool.js";
import { WorkspaceError } from "../../workspace/workspace-error.js";
import type { WorkspaceToolName } from "../../workspace/workspace-tool-names.js";
import { openWorkspace } from "../../workspace/workspace.js";
import type { ToolContext } from "../tool-context.js";
import { toolSuccess, type ToolResult } from "../tool-result.js";

/** The workspace a call works in: the server's repository, its `--read-only`, the client's roots. */
function open(ctx: ToolContext) {
  return openWorkspace(ctx.root, {
    onWarning: (m) => ctx.log(`warning: ${m}`),
    ...(ctx.readOnly === true ? { readOnly: true } : {}),
    ...(ctx.roots !== undefined ? { roots: ctx.roots } : {}),
  });
}

function failure(body: object): ToolResult {
  return { content: [{ type: "text", text: JSON.stringify(body) }], isError: true };
}

/** `unreadable`: why the arguments cannot be taken (refused and recorded as such). */
export async function workspaceTool(name: WorkspaceToolName, args: unknown, ctx: ToolContext, unreadable?: string): Promise<ToolResult> {
  if (!ctx.inRepo) {
    return failure({
      success: false,
      code: "config_error",
      message: `not inside a git repository (${ctx.root}): the workspace tools are confined to a repository; start the server in one`,
    });
  }
  let ws;
  try {
    ws = open(ctx);
  } catch (e) {
    if (e instanceof WorkspaceError) return failure({ success: false, code: e.code, message: e.message });
    throw e;
  }
  const details = stepDetails(ctx);
  const outcome = await runWorkspaceTool(ws, name, args, {
    via: "mcp",
    log: ctx.log,
    ...(details !== undefined ? { details } : {}),
    ...(unreadable !== undefined ? { unreadable } : {}),
  });
  if (outcome.failed) return failure(outcome.body);
  if (outcome.blocks !== undefined) return { content: outcome.blocks, structuredContent: outcome.body };
  if (outcome.text !== undefined) return { content: [{ type: "text", text: outcome.text }], structuredContent: outcome.body };
  return toolSuccess(outcome.body);
}

/** The run step's details of a workspace request's ledger line (`mcp --step`). */
function stepDetails(ctx: ToolContext): Record<string, unknown> | undefined {
  const step = ctx.agentStep;
  return step !== undefined ? { run: { run_id: step.runId, step: step.index, role: step.role } } : undefined;
}

/** A workspace tool the run step's role may not use: refused, and recorded in the ledger like any refusal. */
export async function refuseWorkspaceTool(name: WorkspaceToolName, args: unknown, ctx: ToolContext, message: string): Promise<ToolResult> {
  const body = { success: false, code: "not_for_role", message };
  if (!ctx.inRepo) return failure(body);
  let ws;
  try {
    ws = open(ctx);
  } catch (e) {
    if (e instanceof WorkspaceError) return failure(body);
    throw e;
  }
  const path =
    args !== null && typeof args === "object" && typeof (args as Record<string, unknown>)["path"] === "string"
      ? ((args as Record<string, unknown>)["path"] as string).slice(0, 4096)
      : "";
  const outcome = await recordRefusal(
    ws,
    name,
    { code: "not_for_role", message, status: 403, details: { ...stepDetails(ctx), ...(path !== "" ? { requested_path: path } : {}) } },
    { via: "mcp", log: ctx.log },
  );
  return failure(outcome.body);
}
