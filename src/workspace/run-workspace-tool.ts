/**
 * One request to a workspace tool, whichever binding it came through (MCP, HTTP, the
 * library): validate the arguments against the tool's schema, run the tool, append
 * one ledger line whatever the outcome (refused requests too), and return the NOA
 * body with the HTTP status it maps to.
 */
import { didYouMean } from "../errors/did-you-mean.js";
import { schemaKeysAt } from "../errors/schema-keys-at.js";
import { LockTimeoutError } from "../fsx/with-file-lock.js";
import { appendLedger } from "./append-ledger.js";
import { portableDetails } from "./ledger-portable.js";
import { failureBody, HTTP_STATUS, WorkspaceError, type WorkspaceErrorCode } from "./workspace-error.js";
import { WORKSPACE_SCHEMAS } from "./workspace-schemas.js";
import type { WorkspaceToolName } from "./workspace-tool-names.js";
import type { Workspace } from "./workspace.js";
import type { ToolOutput } from "./tools/tool-output.js";

export type Binding = "mcp" | "http" | "library" | "cli" | "acp";

export interface WorkspaceCallOptions {
  /** Recorded in each ledger line's details (`via`). */
  via?: Binding;
  /** Aborts a running command (server shutdown). */
  signal?: AbortSignal;
  /** Where unexpected errors are logged with their stack. */
  log?: (line: string) => void;
  /** Added to the request's ledger line details (e.g. `run`: the run step whose agent asked, from `mcp --step`). */
  details?: Record<string, unknown>;
  /** The request could not even be read (a body that is not JSON): refuse it with this message, and record it. */
  unreadable?: string;
  /** A command tool tells the process id of what it started (the run loop records it for crash recovery). */
  onSpawn?: (pid: number) => void | Promise<void>;
}

export interface WorkspaceOutcome {
  /** HTTP status: 200 for a result (a command that exited non-zero included), else the failure's. */
  status: number;
  /** The NOA body: the tool's result, or `{success:false, message, code}`. */
  body: Record<string, unknown>;
  /** True when the request was refused or failed (the body is a failure body). */
  failed: boolean;
}

interface Issue {
  path: ReadonlyArray<PropertyKey>;
  message: string;
  code?: string;
  keys?: string[];
  expected?: string;
}

/** JSON's name for a value's type (what a client sent). */
function jsonType(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "number") return `the number ${v}`;
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return `${typeof v} ${String(v)}`;
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let v = root;
  for (const k of path) v = v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

function describeIssues(issues: readonly Issue[], raw: unknown, schema: unknown): string {
  return issues
    .slice(0, 5)
    .map((i) => {
      const at = i.path.map(String).join(".");
      if (i.code === "unrecognized_keys" && i.keys !== undefined)
        return `unknown argument${i.keys.length > 1 ? "s" : ""} ${i.keys.map((k) => `${JSON.stringify(k)}${didYouMean(k, schemaKeysAt(schema, i.path) ?? [])}`).join(", ")}${at.length > 0 ? ` in ${at}` : ""}`;
      if (i.code === "invalid_type" && i.expected !== undefined)
        return `${at.length > 0 ? at : "arguments"}: expected ${i.expected === "int" ? "a whole number" : i.expected}, found ${jsonType(valueAt(raw, i.path))}`;
      return `${at.length > 0 ? at : "arguments"}: ${i.message}`;
    })
    .join("; ");
}

// biome-ignore lint/suspicious/noExplicitAny: each tool takes its own arguments, validated by its schema before dispatch
async function dispatch(ws: Workspace, name: WorkspaceToolName, args: any, options: WorkspaceCallOptions): Promise<ToolOutput<object>> {
  const run = { ...(options.signal !== undefined ? { signal: options.signal } : {}), ...(options.onSpawn !== undefined ? { onSpawn: options.onSpawn } : {}) };
  switch (name) {
    case "read_file":
      return (await import("./tools/read-file.js")).readFileTool(ws, args);
    case "list_files":
      return (await import("./tools/list-files.js")).listFilesTool(ws, args);
    case "edit_file":
      return (await import("./tools/edit-file.js")).editFileTool(ws, args);
    case "apply_patch":
      return (await import("./tools/edit-file.js")).applyPatchTool(ws, args);
    case "run_command":
      return (await import("./tools/run-command.js")).runCommandTool(ws, args, run);
    case "run_tests":
      return (await import("./tools/run-command.js")).runConfiguredTool(ws, "test", args, run);
    case "build_workspace":
      return (await import("./tools/run-command.js")).runConfiguredTool(ws, "build", args, run);
  }
}

function classify(e: unknown, name: string, log: ((line: string) => void) | undefined): { code: WorkspaceErrorCode; message: string } {
  if (e instanceof WorkspaceError) return { code: e.code, message: e.message };
  if (e instanceof LockTimeoutError) return { code: "lock_timeout", message: e.message };
  const errno = (e as NodeJS.ErrnoException).code;
  if (typeof errno === "string") return { code: "io_error", message: `${name}: ${(e as Error).message}` };
  const err = e instanceof Error ? e : new Error(String(e));
  log?.(`internal error in ${name}: ${err.stack ?? err.message}`);
  return { code: "internal", message: `internal error in ${name}: ${err.message}` };
}

/** A path-like argument for the ledger of a refused request (what was asked, as given). */
function askedPath(raw: unknown): string {
  if (raw === null || typeof raw !== "object") return "";
  const p = (raw as Record<string, unknown>)["path"];
  return typeof p === "string" ? p.slice(0, 4096) : "";
}

/**
 * Record a request a binding refused before it reached a tool (HTTP: an unknown endpoint,
 * a method other than POST, a body that is not JSON or too large) and answer it: one ledger
 * line like any refusal, then the failure body with `status`. Never throws.
 */
export async function recordRefusal(
  ws: Workspace,
  action: string,
  refusal: { code: string; message: string; status: number; details?: Record<string, unknown> },
  options: Pick<WorkspaceCallOptions, "via" | "log"> = {},
): Promise<WorkspaceOutcome> {
  const body = { success: false, message: refusal.message, code: refusal.code };
  try {
    await appendLedger(ws, [
      {
        action,
        path: "",
        details: portableDetails(
          { via: options.via ?? "library", outcome: "refused", code: refusal.code, message: refusal.message, ...refusal.details },
          ws.root,
          ws.env["HOME"],
        ),
      },
    ]);
  } catch (e) {
    const why = classify(e, "the ledger", options.log);
    return {
      status: HTTP_STATUS.ledger_error,
      body: { ...failureBody("ledger_error", `${refusal.message} (and it could not be recorded in the evidence ledger: ${why.message})`) },
      failed: true,
    };
  }
  return { status: refusal.status, body, failed: true };
}

/** Run one workspace tool request end to end (validation, tool, ledger). Never throws. */
export async function runWorkspaceTool(
  ws: Workspace,
  name: WorkspaceToolName,
  rawArgs: unknown,
  options: WorkspaceCallOptions = {},
): Promise<WorkspaceOutcome> {
  const via = options.via ?? "library";
  let output: ToolOutput<object> | null = null;
  let failure: { code: WorkspaceErrorCode; message: string } | null = null;
  const parsed = WORKSPACE_SCHEMAS[name].input.safeParse(rawArgs);
  if (options.unreadable !== undefined) failure = { code: "invalid_arguments", message: `invalid request for ${name}: ${options.unreadable}` };
  else if (!parsed.success)
    failure = {
      code: "invalid_arguments",
      message: `invalid arguments for ${name}: ${describeIssues(parsed.error.issues as unknown as Issue[], rawArgs, WORKSPACE_SCHEMAS[name].input)}`,
    };
  else {
    try {
      output = await dispatch(ws, name, parsed.data, options);
    } catch (e) {
      failure = classify(e, name, options.log);
    }
  }
  const details =
    output !== null
      ? { via, ...options.details, outcome: "ok", ...output.details }
      : { via, ...options.details, outcome: "refused", code: failure!.code, message: failure!.message };
  try {
    await appendLedger(ws, [
      { action: name, path: output !== null ? output.ledgerPath : askedPath(rawArgs), details: portableDetails(details, ws.root, ws.env["HOME"]) },
    ]);
  } catch (e) {
    const why = classify(e, "the ledger", options.log);
    const message =
      output !== null
        ? `${name} was carried out, but could not be recorded in the evidence ledger (${ws.protectedPaths.ledger}): ${why.message}`
        : `${failure!.message} (and it could not be recorded in the evidence ledger: ${why.message})`;
    return { status: HTTP_STATUS.ledger_error, body: { ...failureBody("ledger_error", message) }, failed: true };
  }
  if (output !== null) return { status: 200, body: output.body as Record<string, unknown>, failed: false };
  return { status: HTTP_STATUS[failure!.code], body: { ...failureBody(failure!.code, failure!.message) }, failed: true };
}
