/**
 * The MCP server's protocol core: one line of JSON-RPC in, at most one line
 * out. Transport-free (run-mcp-stdio.ts feeds it stdin lines) and stateless:
 * every method can be called in any order, with or without `initialize`.
 *
 * Methods: `initialize` (protocol version negotiation; `schemaNote` /
 * `projectNote` when the project's `.notarai/` copies are older than this CLI),
 * `ping`, `tools/list`, `tools/call`, and `server/discover` (newer clients
 * probe it before falling back to `initialize`). Notifications and responses
 * are ignored; batches (JSON arrays) are answered with an array.
 */
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
  /** The repository whose `.norma/` run_list and run_status read (a run's agents work in its worktree; the records are in the main checkout). */
  runsRoot?: string;
}

export const SERVER_INSTRUCTIONS = `${TOOL_NAME} keeps this repository's specs (.notarai/**/*.spec.yaml), its .noma documents and their edit transcripts in step with the code.
Reconcile: list_affected_specs {base_branch} → for each affected spec get_spec_diff {spec_path, base_branch} (and get_changed_artifacts) → update code/docs/specs → mark_reconciled {files} → snapshot_state.
Edit .noma documents only through patch_block: read_doc (or list_ids) first, address blocks by canonical id, pass a block's hash as baseHash; a rejected patch returns {ok:false, code}. validate_doc checks a document.
Work on files and commands through the workspace tools: read_file, list_files, edit_file, apply_patch (paths relative to the repository root; the previous version of every overwritten file is archived), run_command (allowlisted commands only), run_tests, build_workspace. Every request is recorded in the evidence ledger.
Runs of the plan → do → check → act loop (noma-reconcile run): run_list, and run_status for the run you are part of (its steps, events and last verdict).`;

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

export class McpServer {
  private readonly options: McpServerOptions;

  constructor(options: McpServerOptions) {
    this.options = options;
  }

  /** Handle one line of input; returns the line to write (without newline), or null when nothing is to be answered. */
  async handleLine(line: string): Promise<string | null> {
    const parsed = parseLine(line);
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
      case "response":
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
    return {
      tools: TOOL_CATALOG.filter((t) => allowed === null || allowed.includes(t.name)).map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: schemas[t.name].inputSchema,
        outputSchema: schemas[t.name].outputSchema,
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
      const { root, inRepo } = await this.options.root();
      const { refuseWorkspaceTool } = await import("./tools/workspace-tool.js");
      return refuseWorkspaceTool(name, args, { root, inRepo, log: this.options.log, agentStep: step }, message);
    }
    if (!isRecord(args) && !workspace) throw new RpcError(INVALID_PARAMS, "Invalid params: tools/call params.arguments must be an object");
    const { root, inRepo } = await this.options.root();
    const ctx: ToolContext = {
      root,
      inRepo,
      log: this.options.log,
      ...(step !== undefined ? { agentStep: step } : {}),
      ...(this.options.runsRoot !== undefined ? { runsRoot: this.options.runsRoot } : {}),
    };
    const { callTool } = await import("./call-tool.js");
    return callTool(name as ToolName, args as Record<string, unknown>, ctx);
  }
}
