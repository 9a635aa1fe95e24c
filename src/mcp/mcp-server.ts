/**
 * The MCP server's protocol core: one line of JSON-RPC in, at most one line
 * out. Transport-free (run-mcp-stdio.ts feeds it stdin lines). Every method can be
 * called in any order, with or without `initialize`; the one state kept is the
 * client's roots (MCP Roots): a client that says it has roots (`capabilities.roots`
 * at `initialize`) is asked for them (`roots/list`, through `send`) once it is
 * initialized and again on `notifications/roots/list_changed`, and every workspace
 * tool call waits for the answer — the workspace is then their intersection with the
 * repository. `--read-only` (or `workspace.read_only` in the configuration) lists and
 * serves only the tools that read.
 *
 * Methods: `initialize` (protocol version negotiation; `schemaNote` /
 * `projectNote` when the project's `.notarai/` copies are older than this CLI),
 * `ping`, `tools/list`, `tools/call`, and `server/discover` (newer clients
 * probe it before falling back to `initialize`). Other notifications, and responses
 * to requests we did not send, are ignored; batches (JSON arrays) are answered with an
 * array.
 */
import { fileURLToPath } from "node:url";
import { TOOL_NAME, TOOL_VERSION } from "../version.js";
import {
  classifyMessage,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  parseLine,
  RpcError,
  rpcError,
  rpcResult,
  serializeMessage,
  type RpcId,
  type RpcResponse,
} from "./json-rpc.js";
import { projectNotes } from "./project-notes.js";
import { negotiateProtocolVersion, SUPPORTED_PROTOCOL_VERSIONS } from "./protocol-version.js";
import { TOOL_CATALOG, TOOL_NAMES, type ToolName } from "./tool-catalog.js";
import type { ToolContext } from "./tool-context.js";
import { loadToolJsonSchemas } from "./tool-json-schemas.js";
import { isWorkspaceTool } from "../workspace/workspace-tool-names.js";
import { roleTools, type AgentStep } from "../runs/agent-step.js";
import { toolFailure } from "./tool-result.js";
import { didYouMean } from "../errors/did-you-mean.js";
import { NomaError } from "../errors/noma-error.js";
import { readOnlyFromConfig } from "../config/read-only-from-config.js";

/** The methods a request may name (for "did you mean" on any other). */
const METHODS = ["initialize", "ping", "tools/list", "tools/call", "server/discover"];

export interface RepoRoot {
  root: string;
  inRepo: boolean;
}

export interface McpServerOptions {
  /** The repository the tools work on (git's top level; asked for on the first tool call). */
  root: () => Promise<RepoRoot> | RepoRoot;
  /** Where `.notarai/` is looked for at `initialize` (default: the tools' root). */
  projectRoot?: () => string;
  /** Log a line on stderr. */
  log: (line: string) => void;
  /** Override the version compared with the project's copies (tests). */
  version?: string;
  /** Serve the agent of this run step (`mcp --step`): only its role's tools; its workspace requests are attributed to it in the ledger. */
  agentStep?: AgentStep;
  /** `mcp --read-only`: list and serve only the tools that read (`workspace.read_only: true` in the configuration does too). */
  readOnly?: boolean;
  /** Write a request to the client (`roots/list`); without it the client's roots are never asked for. */
  send?: (message: Record<string, unknown>) => void;
  /** How long a tool call waits for the client's roots (ms, default 10 000); past it the whole repository is the workspace, and it is logged. */
  rootsTimeoutMs?: number;
  /** The repository whose `.norma/` run_list and run_status read (a run's agents work in its worktree; the records are in the main checkout). */
  runsRoot?: string;
}

export const SERVER_INSTRUCTIONS = [
  `${TOOL_NAME} keeps this repository's specs (.notarai/**/*.spec.yaml), its .noma documents and their edit transcripts in step with the code.`,
  `Reconcile: list_affected_specs {base_branch} → for each affected spec get_spec_diff {spec_path, base_branch} (and get_changed_artifacts) → ` +
    `update code/docs/specs → mark_reconciled {files} → snapshot_state.`,
  `Edit .noma documents only through patch_block: read_doc (or list_ids) first, address blocks by canonical id, pass a block's hash as baseHash; a ` +
    `rejected patch returns {ok:false, code}. validate_doc checks a document.`,
  `Work on files and commands through the workspace tools (paths relative to the repository root): read with read_file / read_text_file, ` +
    `read_multiple_files, read_media_file; find with search_text (contents, .gitignore honoured), search_files (names), list_directory, ` +
    `directory_tree; change with edit_file (whole contents, or edits: [{oldText, newText}] answered with a diff), apply_patch, write_file, ` +
    `append_file, create_directory, move_file (every overwritten or moved file is archived first); run_command (allowlisted commands only), run_tests, ` +
    `build_workspace. Every request is recorded in the evidence ledger, a change's intent before it happens.`,
  `Runs of the plan → do → check → act loop (noma-reconcile run): run_list, and run_status for the run you are part of (its steps, events and last verdict).`,
].join("\n");

/** Whether a parsed message (or batch) calls a tool: such messages are answered one at a time, in order (run-mcp-stdio.ts). */
export function callsTool(parsed: ReturnType<typeof parseLine>): boolean {
  if (!parsed.ok) return false;
  const one = (v: unknown): boolean => isRecord(v) && v["method"] === "tools/call";
  return Array.isArray(parsed.value) ? parsed.value.some(one) : one(parsed.value);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

export class McpServer {
  private readonly options: McpServerOptions;
  /** The client said it has roots (`capabilities.roots` at initialize). */
  private clientRoots = false;
  /** Its roots as absolute paths, once it gave some (undefined: none given, the whole repository). */
  private roots: string[] | undefined;
  /** The roots/list request in flight, if any. */
  private rootsRequest: Promise<void> | null = null;
  private readonly pending = new Map<string, (answer: { result?: unknown; error?: unknown }) => void>();
  private sent = 0;

  constructor(options: McpServerOptions) {
    this.options = options;
  }

  /** A response to a request of ours: settle it now (true), or false when it is not one (run-mcp-stdio.ts calls this before queueing). */
  acceptResponse(value: unknown): boolean {
    const msg = classifyMessage(value);
    if (msg.kind !== "response") return false;
    const settle = typeof msg.id === "string" ? this.pending.get(msg.id) : undefined;
    if (settle !== undefined) {
      this.pending.delete(msg.id as string);
      settle(msg);
    }
    return true;
  }

  /** Ask the client for its roots; calls wait for the answer (or the timeout). */
  private refreshRoots(): Promise<void> {
    const send = this.options.send;
    if (send === undefined) return Promise.resolve();
    const id = `noma-reconcile-roots-${++this.sent}`;
    const request = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        if (!this.pending.delete(id)) return;
        this.options.log(`the client did not answer roots/list within ${this.options.rootsTimeoutMs ?? 10_000} ms: the workspace is the whole repository`);
        resolve();
      }, this.options.rootsTimeoutMs ?? 10_000);
      timer.unref();
      this.pending.set(id, (answer) => {
        clearTimeout(timer);
        this.roots = this.rootsFrom(answer);
        resolve();
      });
    });
    const settled: Promise<void> = request.finally(() => {
      if (this.rootsRequest === settled) this.rootsRequest = null;
    });
    this.rootsRequest = settled;
    send({ jsonrpc: "2.0", id, method: "roots/list" });
    return settled;
  }

  /** The roots of a roots/list answer as absolute paths (file: URIs only); undefined when it gave none usable. */
  private rootsFrom(answer: { result?: unknown; error?: unknown }): string[] | undefined {
    const list = isRecord(answer.result) ? answer.result["roots"] : undefined;
    if (!Array.isArray(list)) {
      this.options.log(`roots/list failed (${JSON.stringify(answer.error ?? answer.result).slice(0, 300)}): the workspace is the whole repository`);
      return undefined;
    }
    const paths: string[] = [];
    for (const r of list) {
      const uri = isRecord(r) ? r["uri"] : undefined;
      if (typeof uri !== "string" || !uri.startsWith("file:")) {
        this.options.log(`a root that is not a file: URI is ignored: ${JSON.stringify(uri).slice(0, 300)}`);
        continue;
      }
      try {
        paths.push(fileURLToPath(uri));
      } catch {
        this.options.log(`a root that is not a local file: URI is ignored: ${JSON.stringify(uri).slice(0, 300)}`);
      }
    }
    if (list.length === 0) {
      this.options.log("the client gave no roots: the workspace is the whole repository");
      return undefined;
    }
    return paths;
  }

  /** The client's roots, once asked for (a call waits for a request in flight). */
  private async currentRoots(): Promise<string[] | undefined> {
    if (this.clientRoots && this.roots === undefined && this.rootsRequest === null && this.sent === 0) void this.refreshRoots();
    if (this.rootsRequest !== null) await this.rootsRequest;
    return this.roots;
  }

  /** Whether only the tools that read are served: `--read-only`, or the configuration's workspace.read_only. */
  private async isReadOnly(): Promise<boolean> {
    if (this.options.readOnly === true) return true;
    try {
      const root = this.options.projectRoot !== undefined ? this.options.projectRoot() : (await this.options.root()).root;
      return await readOnlyFromConfig(root);
    } catch {
      return false;
    }
  }

  /** Handle one line of input; returns the line to write (without newline), or null when nothing is to be answered. */
  async handleLine(line: string): Promise<string | null> {
    return this.handleParsed(parseLine(line));
  }

  /** handleLine on a line already parsed (`parseLine`). */
  async handleParsed(parsed: ReturnType<typeof parseLine>): Promise<string | null> {
    if (!parsed.ok) return serializeMessage(rpcError(null, parsed.error.code, parsed.error.message));
    if (Array.isArray(parsed.value)) {
      if (parsed.value.length === 0) return serializeMessage(rpcError(null, INVALID_REQUEST, "Invalid Request: empty batch"));
      const out: RpcResponse[] = [];
      for (const item of parsed.value) {
        const r = await this.handleValue(item);
        if (r !== null) out.push(r);
      }
      return out.length > 0 ? serializeMessage(out) : null;
    }
    const r = await this.handleValue(parsed.value);
    return r !== null ? serializeMessage(r) : null;
  }

  /** Handle one parsed message; returns the response, or null for notifications and responses. */
  async handleValue(value: unknown): Promise<RpcResponse | null> {
    const msg = classifyMessage(value);
    switch (msg.kind) {
      case "notification":
        if (this.clientRoots && (msg.method === "notifications/initialized" || msg.method === "notifications/roots/list_changed")) void this.refreshRoots();
        return null;
      case "response":
        this.acceptResponse(value);
        return null;
      case "invalid":
        return rpcError(msg.id, msg.error.code, msg.error.message);
      case "request":
        try {
          return rpcResult(msg.id, await this.dispatch(msg.method, msg.params));
        } catch (e) {
          return this.errorResponse(msg.id, msg.method, e);
        }
    }
  }

  private errorResponse(id: RpcId, method: string, e: unknown): RpcResponse {
    if (e instanceof RpcError) return rpcError(id, e.rpcCode, e.message, e.data);
    const err = e instanceof Error ? e : new Error(String(e));
    this.options.log(`internal error in ${method}: ${err.stack ?? err.message}`);
    return rpcError(id, INTERNAL_ERROR, `Internal error: ${err.message}`);
  }

  /** The tools' repository; a failure to find it (git refusing, missing, failing) as the tool's error, never as "not in a repository". */
  private async repoRoot(): Promise<RepoRoot | ReturnType<typeof toolFailure>> {
    try {
      return await this.options.root();
    } catch (e) {
      if (e instanceof NomaError) return toolFailure(`cannot find the repository: ${e.message}`);
      throw e;
    }
  }

  private async dispatch(method: string, params: Record<string, unknown> | unknown[] | undefined): Promise<unknown> {
    switch (method) {
      case "initialize":
        return this.initialize(params);
      case "ping":
        return {};
      case "tools/list":
        return this.listTools();
      case "tools/call":
        return this.callTool(params);
      case "server/discover":
        return this.discover();
      default:
        throw new RpcError(METHOD_NOT_FOUND, `Method not found: ${method}${didYouMean(method, METHODS)}`);
    }
  }

  private serverInfo(): Record<string, string> {
    return { name: TOOL_NAME, title: TOOL_NAME, version: TOOL_VERSION };
  }

  private async initialize(params: Record<string, unknown> | unknown[] | undefined): Promise<Record<string, unknown>> {
    if (!isRecord(params) || typeof params["protocolVersion"] !== "string") {
      throw new RpcError(INVALID_PARAMS, 'Invalid params: initialize needs params.protocolVersion (a string such as "2025-06-18")');
    }
    const caps = params["capabilities"];
    this.clientRoots = isRecord(caps) && isRecord(caps["roots"]) && this.options.send !== undefined;
    let notes = {};
    try {
      const root = this.options.projectRoot !== undefined ? this.options.projectRoot() : (await this.options.root()).root;
      notes = projectNotes(root, this.options.version ?? TOOL_VERSION);
    } catch (e) {
      this.options.log(`could not compare the project's .notarai/ copies with this CLI: ${(e as Error).message}`);
    }
    return {
      protocolVersion: negotiateProtocolVersion(params["protocolVersion"]),
      capabilities: { tools: { listChanged: false } },
      serverInfo: this.serverInfo(),
      instructions: SERVER_INSTRUCTIONS,
      ...notes,
    };
  }

  private discover(): Record<string, unknown> {
    return {
      resultType: "complete",
      supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      capabilities: { tools: { listChanged: false } },
      serverInfo: this.serverInfo(),
      instructions: SERVER_INSTRUCTIONS,
    };
  }

  private async listTools(): Promise<Record<string, unknown>> {
    const schemas = await loadToolJsonSchemas();
    const allowed = this.allowedTools();
    const readOnly = await this.isReadOnly();
    return {
      tools: TOOL_CATALOG.filter((t) => (allowed === null || allowed.includes(t.name)) && (!readOnly || t.annotations.readOnlyHint)).map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: schemas[t.name].inputSchema,
        ...(t.textAnswer === true ? {} : { outputSchema: schemas[t.name].outputSchema }),
        annotations: { title: t.title, ...t.annotations },
      })),
    };
  }

  /** The tools this server offers: every one, or those of the run step's role. */
  private allowedTools(): readonly ToolName[] | null {
    if (this.options.agentStep === undefined) return null;
    const allowed = roleTools(this.options.agentStep.role);
    return TOOL_CATALOG.filter((t) => allowed.includes(t.name)).map((t) => t.name);
  }

  private async callTool(params: Record<string, unknown> | unknown[] | undefined): Promise<unknown> {
    if (!isRecord(params)) throw new RpcError(INVALID_PARAMS, "Invalid params: tools/call needs params {name, arguments}");
    const name = params["name"];
    if (typeof name !== "string") throw new RpcError(INVALID_PARAMS, "Invalid params: tools/call needs params.name (a string)");
    if (!(TOOL_NAMES as readonly string[]).includes(name))
      throw new RpcError(INVALID_PARAMS, `Unknown tool: ${name}${didYouMean(name, TOOL_NAMES)} (tools: ${TOOL_NAMES.join(", ")})`);
    const args = params["arguments"] ?? {};
    // The workspace tools take any JSON: a wrong type is their isError result (and a ledger line).
    const workspace = isWorkspaceTool(name);
    const allowed = this.allowedTools();
    const step = this.options.agentStep;
    if (allowed !== null && step !== undefined && !allowed.includes(name as ToolName)) {
      // A result the model can read (not a protocol error): the tool exists, this agent may not use it.
      const why =
        step.role === "plan" || step.role === "check"
          ? "plan and check agents only read"
          : "no agent marks files reconciled, writes the snapshot, clears the cache or patches a .noma document itself — the loop does, from the step's files";
      const message = `${name} is not available to the ${step.role} agent of run ${step.runId} (step ${step.index}): ${why}; its tools: ${allowed.join(", ")}`;
      if (!workspace) return toolFailure(message);
      // A refused workspace request is a ledger line like every other.
      const where = await this.repoRoot();
      if (!("root" in where)) return where;
      const { root, inRepo } = where;
      const { refuseWorkspaceTool } = await import("./tools/workspace-tool.js");
      return refuseWorkspaceTool(name, args, { root, inRepo, log: this.options.log, agentStep: step }, message);
    }
    if (!isRecord(args) && !workspace) throw new RpcError(INVALID_PARAMS, "Invalid params: tools/call params.arguments must be an object");
    const readOnly = await this.isReadOnly();
    const meta = TOOL_CATALOG.find((t) => t.name === name)!;
    // A tool that writes, on a read-only server: a result the model can read (a workspace tool's refusal is a ledger line too).
    if (readOnly && !meta.annotations.readOnlyHint && !workspace)
      return toolFailure(
        `${name} is not available: the server is read-only (--read-only, or workspace.read_only in .notarai/config.yaml); only the tools that read are served`,
      );
    const where = await this.repoRoot();
    if (!("root" in where)) return where;
    const { root, inRepo } = where;
    const roots = workspace ? await this.currentRoots() : undefined;
    const ctx: ToolContext = {
      root,
      inRepo,
      log: this.options.log,
      ...(step !== undefined ? { agentStep: step } : {}),
      ...(readOnly ? { readOnly: true } : {}),
      ...(roots !== undefined ? { roots } : {}),
      ...(this.options.runsRoot !== undefined ? { runsRoot: this.options.runsRoot } : {}),
    };
    const { callTool } = await import("./call-tool.js");
    return callTool(name as ToolName, args as Record<string, unknown>, ctx);
  }
}
