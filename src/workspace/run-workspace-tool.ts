/**
 * One request to a workspace tool, whichever binding it came through (MCP, HTTP, the
 * library): refuse a tool that writes when the workspace is read-only, validate the
 * arguments against the tool's schema, run the tool, and record it in the ledger whatever
 * the outcome (refused requests too) — one line for a request that only reads or is
 * refused before any effect; an intent line before the first change on disk and an
 * outcome line after for one that changes something (effect-journal.ts). The answer (the
 * NOA body with the HTTP status it maps to) comes only once its last line is durable.
 */
import { didYouMean } from "../errors/did-you-mean.js";
import { schemaKeysAt } from "../errors/schema-keys-at.js";
import { LockTimeoutError } from "../fsx/with-file-lock.js";
import { illFormedString } from "../fsx/utf8-text.js";
import { appendLedger } from "./append-ledger.js";
import { portableDetails } from "./ledger-portable.js";
import { failureBody, HTTP_STATUS, WorkspaceError, type WorkspaceErrorCode } from "./workspace-error.js";
import { EffectJournal } from "./effect-journal.js";
import { WORKSPACE_SCHEMAS } from "./workspace-schemas.js";
import { isWorkspaceWriteTool, type WorkspaceToolName } from "./workspace-tool-names.js";
import type { Workspace } from "./workspace.js";
import type { ContentBlock, ToolOutput } from "./tools/tool-output.js";

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
  /** The code of that refusal (default `invalid_arguments`; a body that is not UTF-8: `not_utf8`, 422). */
  unreadableCode?: WorkspaceErrorCode;
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
  /** For MCP: the text block when it is not the body's JSON (the filesystem server's tools answer in text). */
  text?: string;
  /** For MCP: content blocks instead of text (read_media_file). */
  blocks?: ContentBlock[];
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
        return (
          `unknown argument${i.keys.length > 1 ? "s" : ""} ` +
          `${i.keys.map((k) => `${JSON.stringify(k)}${didYouMean(k, schemaKeysAt(schema, i.path) ?? [])}`).join(", ")}` +
          `${at.length > 0 ? ` in ${at}` : ""}`
        );
      if (i.code === "invalid_type" && i.expected !== undefined)
        return `${at.length > 0 ? at : "arguments"}: expected ${i.expected === "int" ? "a whole number" : i.expected}, found ${jsonType(valueAt(raw, i.path))}`;
      return `${at.length > 0 ? at : "arguments"}: ${i.message}`;
    })
    .join("; ");
}

// biome-ignore lint/suspicious/noExplicitAny: each tool takes its own arguments, validated by its schema before dispatch
async function dispatch(ws: Workspace, name: WorkspaceToolName, args: any, options: WorkspaceCallOptions, journal: EffectJournal): Promise<ToolOutput<object>> {
  const run = { ...(options.signal !== undefined ? { signal: options.signal } : {}), ...(options.onSpawn !== undefined ? { onSpawn: options.onSpawn } : {}) };
  switch (name) {
    case "read_file":
      return (await import("./tools/read-file.js")).readFileTool(ws, args);
    case "read_text_file":
      return (await import("./tools/read-text-file.js")).readTextFileTool(ws, args);
    case "read_media_file":
      return (await import("./tools/read-media-file.js")).readMediaFileTool(ws, args);
    case "read_multiple_files":
      return (await import("./tools/read-multiple-files.js")).readMultipleFilesTool(ws, args);
    case "list_files":
      return (await import("./tools/list-files.js")).listFilesTool(ws, args);
    case "list_directory":
      return (await import("./tools/list-directory.js")).listDirectoryTool(ws, args, false);
    case "list_directory_with_sizes":
      return (await import("./tools/list-directory.js")).listDirectoryTool(ws, args, true);
    case "directory_tree":
      return (await import("./tools/directory-tree.js")).directoryTreeTool(ws, args);
    case "search_files":
      return (await import("./tools/search-files.js")).searchFilesTool(ws, args);
    case "search_text":
      return (await import("./tools/search-text.js")).searchTextTool(ws, args);
    case "get_file_info":
      return (await import("./tools/get-file-info.js")).getFileInfoTool(ws, args);
    case "list_allowed_directories":
      return (await import("./tools/list-allowed-directories.js")).listAllowedDirectoriesTool(ws);
    case "edit_file":
      return (await import("./tools/edit-file.js")).editFileTool(ws, args, journal);
    case "write_file":
      return (await import("./tools/write-file.js")).writeFileTool(ws, args, journal);
    case "append_file":
      return (await import("./tools/write-file.js")).appendFileTool(ws, args, journal);
    case "apply_patch":
      return (await import("./tools/edit-file.js")).applyPatchTool(ws, args, journal);
    case "create_directory":
      return (await import("./tools/create-directory.js")).createDirectoryTool(ws, args, journal);
    case "move_file":
      return (await import("./tools/move-file.js")).moveFileTool(ws, args, journal);
    case "run_command":
      return (await import("./tools/run-command.js")).runCommandTool(ws, args, { ...run, journal });
    case "run_tests":
      return (await import("./tools/run-command.js")).runConfiguredTool(ws, "test", args, { ...run, journal });
    case "build_workspace":
      return (await import("./tools/run-command.js")).runConfiguredTool(ws, "build", args, { ...run, journal });
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
  const o = raw as Record<string, unknown>;
  const p = typeof o["path"] === "string" ? o["path"] : o["source"];
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

/** Run one workspace tool request end to end (read-only refusal, validation, tool, ledger). Never throws. */
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
  const journal = new EffectJournal(ws, name, { via, ...options.details });
  // A string UTF-8 cannot encode (a lone surrogate) would be written, or looked up, as U+FFFD.
  const illFormed = options.unreadable === undefined ? illFormedString(rawArgs) : null;
  if (ws.readOnly && isWorkspaceWriteTool(name))
    failure = {
      code: "read_only",
      message:
        `${name} is not available: the workspace is read-only ` +
        `(${ws.config.readOnly === true ? "workspace.read_only in .notarai/config.yaml" : "--read-only"}); only the tools that read are served`,
    };
  else if (options.unreadable !== undefined)
    failure = { code: options.unreadableCode ?? "invalid_arguments", message: `invalid request for ${name}: ${options.unreadable}` };
  else if (illFormed !== null) failure = { code: "not_utf8", message: `invalid request for ${name}: ${illFormed.message}; nothing was done` };
  else if (!parsed.success)
    failure = {
      code: "invalid_arguments",
      message: `invalid arguments for ${name}: ${describeIssues(parsed.error.issues as unknown as Issue[], rawArgs, WORKSPACE_SCHEMAS[name].input)}`,
    };
  else {
    try {
      output = await dispatch(ws, name, parsed.data, options, journal);
    } catch (e) {
      failure = classify(e, name, options.log);
    }
  }
  // After an intent, the outcome line names it; before any effect, one line says it all.
  const phase = journal.intentSeq !== null ? { phase: "outcome", intent_seq: journal.intentSeq } : {};
  const details =
    output !== null
      ? { via, ...options.details, ...phase, outcome: "ok", ...output.details }
      : { via, ...options.details, ...phase, outcome: journal.intentSeq !== null ? "failed" : "refused", code: failure!.code, message: failure!.message };
  const path = output !== null ? output.ledgerPath : journal.intentSeq !== null ? journal.intentPath : askedPath(rawArgs);
  try {
    await appendLedger(ws, [{ action: name, path, details: portableDetails(details, ws.root, ws.env["HOME"]) }]);
  } catch (e) {
    const why = classify(e, "the ledger", options.log);
    const message =
      output !== null
        ? `${name} was carried out, but could not be recorded in the evidence ledger (${ws.protectedPaths.ledger}): ${why.message}`
        : `${failure!.message} (and it could not be recorded in the evidence ledger: ${why.message})`;
    return { status: HTTP_STATUS.ledger_error, body: { ...failureBody("ledger_error", message) }, failed: true };
  }
  if (output !== null)
    return {
      status: 200,
      body: output.body as Record<string, unknown>,
      failed: false,
      ...(output.text !== undefined ? { text: output.text } : {}),
      ...(output.blocks !== undefined ? { blocks: output.blocks } : {}),
    };
  return { status: HTTP_STATUS[failure!.code], body: { ...failureBody(failure!.code, failure!.message) }, failed: true };
}
