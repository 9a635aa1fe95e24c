/**
 * `tools/call` for one known tool: validate the arguments against the tool's
 * zod schema, keep every path argument (`file`, `spec_path`, `files`) inside
 * the repository before anything is read, run the handler (loaded lazily, so
 * a call pays only for what its tool imports), and turn the outcome into an
 * MCP result. Every failure inside a tool is an `isError` result the model can
 * read — bad arguments, a path outside the repository, an unknown spec or
 * ref, a missing file, a git or file-system fault, a lock another process
 * holds past `lock_timeout` of the configuration; an unexpected exception is
 * logged with its stack and reported as an internal error.
 */
import { classifyError } from "../errors/classify-error.js";
import { didYouMean } from "../errors/did-you-mean.js";
import { schemaKeysAt } from "../errors/schema-keys-at.js";
import { lockTimeoutFromConfig } from "../config/lock-timeout-from-config.js";
import { containPath, PathOutsideRepoError } from "../fsx/contain-path.js";
import { setDefaultLockTimeout } from "../fsx/with-file-lock.js";
import type { ToolName } from "./tool-catalog.js";
import type { ToolContext } from "./tool-context.js";
import { TextAnswer, ToolFailure, toolFailure, toolSuccess, toolText, type ToolResult } from "./tool-result.js";
import { isWorkspaceTool, type WorkspaceToolName } from "../workspace/workspace-tool-names.js";
import { resolveArgumentAlias } from "./argument-aliases.js";

// Arguments are validated against the tool's schema before its handler sees them (hence `any`).
// biome-ignore lint/suspicious/noExplicitAny: each handler takes its own tool's arguments, validated by its schema before the call
type Handler = (args: any, ctx: ToolContext) => Promise<object>;

const HANDLERS: Record<Exclude<ToolName, WorkspaceToolName>, () => Promise<Handler>> = {
  list_affected_specs: async () => (await import("./tools/list-affected-specs-tool.js")).listAffectedSpecsTool,
  get_spec_diff: async () => (await import("./tools/get-spec-diff-tool.js")).getSpecDiffTool,
  get_changed_artifacts: async () => (await import("./tools/get-changed-artifacts-tool.js")).getChangedArtifactsTool,
  mark_reconciled: async () => (await import("./tools/mark-reconciled-tool.js")).markReconciledTool,
  clear_cache: async () => (await import("./tools/clear-cache-tool.js")).clearCacheTool,
  snapshot_state: async () => (await import("./tools/snapshot-state-tool.js")).snapshotStateTool,
  read_doc: async () => (await import("./tools/read-doc-tool.js")).readDocTool,
  list_ids: async () => (await import("./tools/list-ids-tool.js")).listIdsTool,
  validate_doc: async () => (await import("./tools/validate-doc-tool.js")).validateDocTool,
  patch_block: async () => (await import("./tools/patch-block-tool.js")).patchBlockTool,
  run_list: async () => (await import("./tools/run-list-tool.js")).runListTool,
  run_status: async () => (await import("./tools/run-status-tool.js")).runStatusTool,
};

/** Argument names that hold repository paths. */
const PATH_ARGS = ["file", "spec_path"] as const;
const PATH_LIST_ARGS = ["files"] as const;

interface Issue {
  path: ReadonlyArray<PropertyKey>;
  message: string;
  code?: string;
  keys?: string[];
}

function describeArgumentIssues(issues: readonly Issue[], schema: unknown): string {
  return issues
    .slice(0, 5)
    .map((i) => {
      const at = i.path.map(String).join(".");
      if (i.code === "unrecognized_keys" && i.keys !== undefined)
        return (
          `unknown argument${i.keys.length > 1 ? "s" : ""} ` +
          `${i.keys.map((k) => `${JSON.stringify(k)}${didYouMean(k, schemaKeysAt(schema, i.path) ?? [])}`).join(", ")}` +
          `${at.length > 0 ? ` in ${at}` : ""}`
        );
      return `${at.length > 0 ? at : "arguments"}: ${i.message}`;
    })
    .join("; ");
}

/** Paths among the arguments that leave the repository (symlinks resolved). */
export function escapingPaths(args: Record<string, unknown>, root: string): string[] {
  const given: string[] = [];
  for (const k of PATH_ARGS) if (typeof args[k] === "string") given.push(args[k] as string);
  for (const k of PATH_LIST_ARGS) if (Array.isArray(args[k])) for (const p of args[k] as unknown[]) if (typeof p === "string") given.push(p);
  const out: string[] = [];
  for (const p of given) {
    try {
      containPath(p, root, root);
    } catch (e) {
      if (e instanceof PathOutsideRepoError) out.push(p);
      else throw e;
    }
  }
  return out;
}

function failureMessage(e: unknown, name: ToolName, log: (line: string) => void): string {
  if (e instanceof ToolFailure) return e.message;
  const err = e instanceof Error ? e : new Error(String(e));
  // The MCP server's one mapping of errors (src/errors/classify-error.ts): what the model or
  // its user can fix — bad input, git, a lock another process holds, a file-system failure —
  // is a tool error with the CLI's text; anything else is our bug, logged with its stack.
  const c = classifyError(err);
  if (c.kind !== "internal") return c.message;
  log(`internal error in ${name}: ${err.stack ?? err.message}`);
  return `internal error in ${name}: ${err.message}`;
}

/** The repository whose `lock_timeout` is this process's lock wait (set on the first call). */
let lockWaitRoot: string | undefined;

export async function callTool(name: ToolName, givenArgs: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  // Every tool's locks wait as long as lock_timeout of .notarai/config.yaml says (read when a lock is found taken).
  if (lockWaitRoot !== ctx.root) {
    lockWaitRoot = ctx.root;
    setDefaultLockTimeout(lockTimeoutFromConfig(ctx.root));
  }
  // `path` for `file` (or `file` for `path`): renamed to the tool's canonical name first.
  const aliased = resolveArgumentAlias(name, givenArgs);
  // The workspace tools validate, contain and record their requests (refusals included) themselves (src/workspace/).
  if (isWorkspaceTool(name))
    return (await import("./tools/workspace-tool.js")).workspaceTool(
      name,
      aliased.ok ? aliased.args : givenArgs,
      ctx,
      aliased.ok ? undefined : aliased.message,
    );
  if (!aliased.ok) return toolFailure(`invalid arguments for ${name}: ${aliased.message}`);
  const rawArgs = aliased.args;
  const { TOOL_SCHEMAS } = await import("./tool-schemas.js");
  const schemas = TOOL_SCHEMAS[name];
  const parsed = (schemas.args ?? schemas.input).safeParse(rawArgs);
  if (!parsed.success)
    return toolFailure(`invalid arguments for ${name}: ${describeArgumentIssues(parsed.error.issues as unknown as Issue[], schemas.args ?? schemas.input)}`);
  const args = parsed.data as Record<string, unknown>;
  const escaping = escapingPaths(args, ctx.root);
  if (escaping.length > 0) {
    return toolFailure(
      `${escaping.map((p) => JSON.stringify(p)).join(", ")}: path${escaping.length > 1 ? "s are" : " is"} outside the repository (${ctx.root}); ` +
        `nothing was read or written`,
    );
  }
  try {
    const handler = await HANDLERS[name as Exclude<ToolName, WorkspaceToolName>]();
    const answer = await handler(args, ctx);
    return answer instanceof TextAnswer ? toolText(answer.text) : toolSuccess(answer);
  } catch (e) {
    return toolFailure(failureMessage(e, name, ctx.log));
  }
}
