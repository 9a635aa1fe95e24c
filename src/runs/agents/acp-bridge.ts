/**
 * What an ACP agent asks of its client, served under its run step's rules: the file
 * system (`fs/read_text_file`, `fs/write_text_file`), terminals (`terminal/*`) and
 * permission requests (`session/request_permission`). No SDK here: plain request and
 * response shapes (those of ACP v1), so the rules can be read and tested on their own.
 *
 * - The step's own files: a path inside the run directory is read directly (the previous
 *   steps' output.json, verdict.json, …); a path inside the step directory (the step's
 *   temp directory) is written directly, atomically — every role writes its files there.
 *   Nothing else under the run directory is written.
 * - Everything else goes through the workspace tools of the step's work tree (`root`,
 *   given by the step: the repository today, the run's worktree when it has one):
 *   `read_file` for reads, `edit_file` for writes — contained (symbolic links resolved),
 *   `.git/` and the tools' records protected, the previous version archived — and
 *   `run_command` for terminals (the allowlist). A plan or check agent may read but not
 *   write repository files nor run commands (agent-step.ts roleTools: the same rules as
 *   `mcp --step`); such a request is refused.
 * - Every request that reads, writes, runs, kills or asks is one line in the evidence
 *   ledger, refusals included, naming the run step (`details.run`) and the ACP method
 *   (`details.acp`); the workspace tools write their own lines, the others are written
 *   here with the ACP method as the action. (`terminal/output` and `terminal/wait_for_exit`
 *   only report on a command already recorded.)
 * - A terminal runs its command to the end and reports its output when it has exited
 *   (run_command captures it); its working directory is the work tree's root.
 *
 * A refused or failed request is an AcpRefusal (message and code), which the driver
 * (run-acp-agent.ts) turns into the JSON-RPC error the agent receives.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { containPath, PathOutsideRepoError } from "../../fsx/contain-path.js";
import { writeFileAtomic } from "../../fsx/write-file-atomic.js";
import { appendLedger } from "../../workspace/append-ledger.js";
import { recordRefusal, runWorkspaceTool, type WorkspaceOutcome } from "../../workspace/run-workspace-tool.js";
import { MAX_FILE_BYTES, MAX_OUTPUT_BYTES } from "../../workspace/workspace-schemas.js";
import { openWorkspace, type Workspace } from "../../workspace/workspace.js";
import { roleTools, type AgentRole } from "../agent-step.js";
import type { PermissionPolicy } from "../run-config.js";
import { decidePermission, type Place, type PermissionRequestLike } from "./acp-permission.js";

export interface AcpStepContext {
  /** The step's work tree (absolute): the workspace the tools are confined to and the session's cwd. */
  root: string;
  /** The run directory and the step's temp directory (absolute). */
  runDir: string;
  stepDir: string;
  runId: string;
  index: number;
  role: AgentRole;
  /** The environment the workspace's commands are built from (PATH, inherited variables). */
  env: NodeJS.ProcessEnv;
  permissions?: Partial<PermissionPolicy> | undefined;
}

/** A request refused or failed: what the agent is told. `code`: the workspace's failure code, or ours. */
export class AcpRefusal extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

interface Terminal {
  command: string;
  done: Promise<WorkspaceOutcome>;
  result: WorkspaceOutcome | null;
  stop: AbortController;
  limit: number;
}

/** What the step did through the client, for its `acp_session` event. */
export interface AcpCounts {
  reads: number;
  writes: number;
  terminals: number;
  refused: number;
  permissions: Array<{ kind: string; title: string; allowed: boolean; reason: string }>;
}

const within = (dir: string, p: string): boolean => p === dir || p.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Lines `line` (1-based) … `line + limit - 1` of a text, line breaks kept. */
export function sliceLines(text: string, line: number | null | undefined, limit: number | null | undefined): string {
  if ((line === null || line === undefined) && (limit === null || limit === undefined)) return text;
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const from = Math.max(0, (line ?? 1) - 1);
  return lines.slice(from, limit !== null && limit !== undefined ? from + Math.max(0, limit) : undefined).join("");
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export class AcpBridge {
  readonly counts: AcpCounts = { reads: 0, writes: 0, terminals: 0, refused: 0, permissions: [] };
  private readonly terminals = new Map<string, Terminal>();
  private nextTerminal = 1;
  private readonly runDir: { given: string; real: string };
  private readonly stepDir: { given: string; real: string };
  private readonly rootDir: { given: string; real: string };

  private constructor(
    readonly ctx: AcpStepContext,
    readonly ws: Workspace,
  ) {
    this.runDir = { given: resolve(ctx.runDir), real: realOrSelf(ctx.runDir) };
    this.stepDir = { given: resolve(ctx.stepDir), real: realOrSelf(ctx.stepDir) };
    this.rootDir = { given: resolve(ctx.root), real: ws.root };
  }

  /** The bridge of one step (the workspace's configuration read once); a WorkspaceError when it is unusable. */
  static open(ctx: AcpStepContext): AcpBridge {
    return new AcpBridge(ctx, openWorkspace(ctx.root, { env: ctx.env }));
  }

  private get details(): Record<string, unknown> {
    return { run: { run_id: this.ctx.runId, step: this.ctx.index, role: this.ctx.role } };
  }

  /** An ACP path (absolute; a relative one is taken from the work tree's root), resolved. */
  private absolute(path: string): string {
    return resolve(this.ws.root, path);
  }

  /** The path as the tools take it and the ledger names it: relative to the work tree when inside it (as written), else as given. */
  private ledgerPath(path: string): string {
    const abs = this.absolute(path);
    for (const dir of [this.rootDir.given, this.rootDir.real]) if (within(dir, abs)) return relative(dir, abs).split(sep).join("/");
    return path.slice(0, 4096);
  }

  private async record(action: string, path: string, details: Record<string, unknown>): Promise<void> {
    await appendLedger(this.ws, [{ action, path: this.ledgerPath(path), details: { via: "acp", ...this.details, ...details } }]);
  }

  private async refuse(action: string, method: string, path: string, code: string, message: string): Promise<never> {
    this.counts.refused++;
    const outcome = await recordRefusal(
      this.ws,
      action,
      { code, message, status: 403, details: { ...this.details, acp: method, ...(path !== "" ? { requested_path: path.slice(0, 4096) } : {}) } },
      { via: "acp" },
    );
    throw new AcpRefusal(String(outcome.body["message"]), String(outcome.body["code"]));
  }

  private failed(outcome: WorkspaceOutcome): AcpRefusal {
    this.counts.refused++;
    return new AcpRefusal(String(outcome.body["message"]), String(outcome.body["code"]));
  }

  /**
   * `path` inside `dir` (a directory as given, or its real path): its path relative to the real
   * directory; null when it is outside as written; refused when it is inside as written but a
   * symbolic link leads it out.
   */
  private inDir(dir: { given: string; real: string }, path: string): string | null {
    const abs = this.absolute(path);
    if (!within(dir.given, abs) && !within(dir.real, abs)) return null;
    try {
      return containPath(abs, dir.real, dir.real);
    } catch (e) {
      if (e instanceof PathOutsideRepoError) throw new AcpRefusal(`${path}: resolves outside ${dir.given} through a symbolic link`, "outside_workspace");
      throw e;
    }
  }

  async readTextFile(p: { path: string; line?: number | null; limit?: number | null }): Promise<{ content: string }> {
    const method = "fs/read_text_file";
    let inRun: string | null;
    try {
      inRun = this.inDir(this.runDir, p.path);
    } catch (e) {
      if (e instanceof AcpRefusal) return this.refuse(method, method, p.path, e.code, e.message);
      throw e;
    }
    if (inRun !== null) {
      const file = join(this.runDir.real, inRun);
      let bytes: Buffer;
      try {
        const st = statSync(file);
        if (!st.isFile()) return this.refuse(method, method, p.path, "not_a_file", `${p.path}: not a regular file`);
        if (st.size > MAX_FILE_BYTES)
          return this.refuse(method, method, p.path, "too_large", `${p.path}: ${st.size} bytes, more than the ${MAX_FILE_BYTES} a request may read`);
        bytes = readFileSync(file);
      } catch (e) {
        if (e instanceof AcpRefusal) throw e;
        return this.refuse(method, method, p.path, "not_found", `${p.path}: no such file in the run directory`);
      }
      let text: string;
      try {
        text = utf8.decode(bytes);
      } catch {
        return this.refuse(method, method, p.path, "not_utf8", `${p.path}: not UTF-8 text`);
      }
      this.counts.reads++;
      await this.record(method, p.path, {
        acp: method,
        outcome: "ok",
        scope: "run_dir",
        bytes: bytes.length,
        sha256: createHash("sha256").update(bytes).digest("hex"),
      });
      return { content: sliceLines(text, p.line, p.limit) };
    }
    const outcome = await runWorkspaceTool(this.ws, "read_file", { path: this.ledgerPath(p.path) }, { via: "acp", details: { ...this.details, acp: method } });
    if (outcome.failed) throw this.failed(outcome);
    this.counts.reads++;
    return { content: sliceLines(String(outcome.body["contents"]), p.line, p.limit) };
  }

  async writeTextFile(p: { path: string; content: string }): Promise<Record<string, never>> {
    const method = "fs/write_text_file";
    let inStep: string | null;
    let inRun: string | null;
    try {
      inStep = this.inDir(this.stepDir, p.path);
      inRun = inStep === null ? this.inDir(this.runDir, p.path) : null;
    } catch (e) {
      if (e instanceof AcpRefusal) return this.refuse(method, method, p.path, e.code, e.message);
      throw e;
    }
    if (inStep !== null) {
      if (inStep === "") return this.refuse(method, method, p.path, "not_a_file", `${p.path}: the step directory is not a file`);
      const bytes = Buffer.from(p.content, "utf8");
      if (bytes.length > MAX_FILE_BYTES)
        return this.refuse(method, method, p.path, "too_large", `content: ${bytes.length} bytes, more than the ${MAX_FILE_BYTES} a request may write`);
      const file = join(this.stepDir.real, inStep);
      mkdirSync(dirname(file), { recursive: true });
      writeFileAtomic(file, bytes);
      this.counts.writes++;
      await this.record(method, p.path, {
        acp: method,
        outcome: "ok",
        scope: "step_dir",
        bytes_written: bytes.length,
        sha256: createHash("sha256").update(bytes).digest("hex"),
      });
      return {};
    }
    if (inRun !== null)
      return this.refuse(
        method,
        method,
        p.path,
        "protected_path",
        `${p.path}: inside the run directory, where an agent writes only in its own step directory (${this.ctx.stepDir})`,
      );
    if (!roleTools(this.ctx.role).includes("edit_file"))
      return this.refuse(
        "edit_file",
        method,
        p.path,
        "not_for_role",
        `${p.path}: a ${this.ctx.role} agent changes no repository file; write your files in the step directory (${this.ctx.stepDir})`,
      );
    const outcome = await runWorkspaceTool(
      this.ws,
      "edit_file",
      { path: this.ledgerPath(p.path), contents: p.content, create_if_missing: true },
      { via: "acp", details: { ...this.details, acp: method } },
    );
    if (outcome.failed) throw this.failed(outcome);
    this.counts.writes++;
    return {};
  }

  async requestPermission(p: PermissionRequestLike): Promise<{ outcome: { outcome: "selected"; optionId: string } | { outcome: "cancelled" } }> {
    const inside = (path: string, place: Place, write: boolean): boolean => {
      try {
        if (place === "step_dir") return this.inDir(this.stepDir, path) !== null;
        this.ws.check(this.absolute(path), write ? "write" : "read");
        return true;
      } catch {
        return false;
      }
    };
    const answer = decidePermission(p, this.ctx.permissions, this.ctx.role, inside);
    const locations = (p.toolCall.locations ?? []).map((l) => l.path);
    const title = p.toolCall.title ?? "";
    this.counts.permissions.push({ kind: answer.kind, title, allowed: answer.allow, reason: answer.reason });
    await this.record("session/request_permission", locations[0] ?? "", {
      acp: "session/request_permission",
      outcome: answer.allow ? "allowed" : "denied",
      kind: answer.kind,
      tool_kind: p.toolCall.kind ?? null,
      title: title.slice(0, 500),
      locations: locations.slice(0, 20).map((l) => this.ledgerPath(l)),
      reason: answer.reason,
      answer: answer.outcome,
    });
    return { outcome: answer.outcome };
  }

  async createTerminal(p: {
    command: string;
    args?: string[] | null;
    env?: Array<{ name: string; value: string }> | null;
    cwd?: string | null;
    outputByteLimit?: number | null;
  }): Promise<{ terminalId: string }> {
    const method = "terminal/create";
    if (!roleTools(this.ctx.role).includes("run_command"))
      return this.refuse("run_command", method, "", "not_for_role", `a ${this.ctx.role} agent runs no command (only do and act agents may)`);
    if (p.cwd !== null && p.cwd !== undefined && realOrSelf(this.absolute(p.cwd)) !== this.ws.root)
      return this.refuse(
        "run_command",
        method,
        p.cwd,
        "invalid_arguments",
        `cwd ${JSON.stringify(p.cwd)}: commands run from the work tree's root (${this.ws.root}); give no cwd, or that one`,
      );
    const limit = Math.min(MAX_OUTPUT_BYTES, Math.max(1024, Math.floor(p.outputByteLimit ?? MAX_OUTPUT_BYTES)));
    const environment = Object.fromEntries((p.env ?? []).map((e) => [e.name, e.value]));
    const id = `term-${this.nextTerminal++}`;
    const stop = new AbortController();
    let started!: () => void;
    const spawned = new Promise<void>((r) => {
      started = r;
    });
    const done = runWorkspaceTool(
      this.ws,
      "run_command",
      { command: p.command, args: p.args ?? [], ...(Object.keys(environment).length > 0 ? { environment } : {}), max_output_bytes: limit },
      { via: "acp", signal: stop.signal, details: { ...this.details, acp: method, terminal_id: id }, onSpawn: () => started() },
    );
    const first = await Promise.race([spawned.then(() => null), done]);
    if (first?.failed) throw this.failed(first);
    const t: Terminal = { command: [p.command, ...(p.args ?? [])].join(" "), done, result: null, stop, limit };
    void done.then((r) => {
      t.result = r;
    });
    this.terminals.set(id, t);
    this.counts.terminals++;
    return { terminalId: id };
  }

  private terminal(id: string): Terminal {
    const t = this.terminals.get(id);
    if (t === undefined) throw new AcpRefusal(`no terminal ${JSON.stringify(id)} (released, or never created)`, "not_found");
    return t;
  }

  private static exitStatus(r: WorkspaceOutcome): { exitCode: number | null; signal: string | null } {
    const b = r.body as { exit_code?: number | null; signal?: string | null };
    return { exitCode: b.exit_code ?? null, signal: b.signal ?? null };
  }

  terminalOutput(p: { terminalId: string }): { output: string; truncated: boolean; exitStatus?: { exitCode: number | null; signal: string | null } } {
    const t = this.terminal(p.terminalId);
    if (t.result === null) return { output: "", truncated: false };
    const b = t.result.body as { stdout?: string; stderr?: string; truncated?: boolean; message?: string };
    let output = `${b.stdout ?? ""}${b.stderr ?? ""}`;
    if (t.result.failed) output = `${b.message ?? ""}\n`;
    let truncated = b.truncated === true;
    const bytes = Buffer.from(output, "utf8");
    if (bytes.length > t.limit) {
      // ACP keeps the end of the output; cut at a character boundary.
      let from = bytes.length - t.limit;
      while (from < bytes.length && (bytes[from]! & 0xc0) === 0x80) from++;
      output = bytes.subarray(from).toString("utf8");
      truncated = true;
    }
    return { output, truncated, exitStatus: AcpBridge.exitStatus(t.result) };
  }

  async waitForExit(p: { terminalId: string }): Promise<{ exitCode: number | null; signal: string | null }> {
    return AcpBridge.exitStatus(await this.terminal(p.terminalId).done);
  }

  async killTerminal(p: { terminalId: string }): Promise<Record<string, never>> {
    const t = this.terminal(p.terminalId);
    const running = t.result === null;
    t.stop.abort();
    await t.done;
    await this.record("terminal/kill", "", { acp: "terminal/kill", outcome: "ok", terminal_id: p.terminalId, command: t.command, was_running: running });
    return {};
  }

  async releaseTerminal(p: { terminalId: string }): Promise<Record<string, never>> {
    const t = this.terminal(p.terminalId);
    this.terminals.delete(p.terminalId);
    if (t.result === null) {
      t.stop.abort();
      await t.done;
      await this.record("terminal/release", "", { acp: "terminal/release", outcome: "ok", terminal_id: p.terminalId, command: t.command, killed: true });
    }
    return {};
  }

  /** End the step's terminals still running (the session is over) and wait for them. */
  async close(): Promise<void> {
    const running = [...this.terminals.values()];
    this.terminals.clear();
    for (const t of running) t.stop.abort();
    await Promise.all(running.map((t) => t.done));
  }
}
