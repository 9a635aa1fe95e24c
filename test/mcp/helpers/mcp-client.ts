/**
 * A minimal MCP client for the tests: spawns the real server (`node dist/cli.js
 * mcp`, or any command) and speaks newline-delimited JSON-RPC to it over stdio.
 * Every line the server writes on stdout is kept, so a test can check that
 * each one is a JSON-RPC message.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { expect, onTestFinished } from "vitest";
import { CLI } from "../../helpers/run-cli.js";
import { TOOL_SCHEMAS } from "../../../src/mcp/tool-schemas.js";
import { TOOL_CATALOG, type ToolName } from "../../../src/mcp/tool-catalog.js";

/** Tools whose answer is their JSON as one text block, without structuredContent (read_doc). */
const TEXT_ANSWER = new Set<string>(TOOL_CATALOG.filter((t) => t.textAnswer === true).map((t) => t.name));

export interface RpcMessage {
  jsonrpc: "2.0";
  id?: string | number | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export interface ToolCallResult {
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface Closed {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  lines: string[];
}

export class McpClient {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every stdout line received so far, in order. */
  readonly lines: string[] = [];
  stdout = "";
  stderr = "";
  private nextId = 1;
  private partial = "";
  private waiters: Array<{ match: (m: unknown) => boolean; resolve: (m: unknown) => void; reject: (e: Error) => void }> = [];
  /** Requests the server sent us (`roots/list`), in order. */
  readonly serverRequests: Array<{ id: string | number; method: string; params?: unknown }> = [];
  /** Answers a request from the server (set it to play a client with roots); without it, requests are only recorded. */
  onRequest: ((method: string, params: unknown) => unknown) | undefined;
  private readonly closed: Promise<Closed>;

  constructor(cwd: string, command: string[] = [process.execPath, CLI, "mcp"], env: NodeJS.ProcessEnv = {}) {
    this.child = spawn(command[0]!, command.slice(1), { cwd, env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout.setEncoding("utf8");
    this.child.stderr.setEncoding("utf8");
    this.child.stdout.on("data", (d: string) => this.onStdout(d));
    this.child.stderr.on("data", (d: string) => (this.stderr += d));
    this.closed = new Promise((resolve) => {
      this.child.on("close", (code, signal) => {
        if (this.partial.length > 0) this.lines.push(this.partial);
        // A server that exits with requests unanswered fails them now rather than at the test timeout.
        for (const w of this.waiters.splice(0))
          w.reject(new Error(`the server exited (code ${code}, signal ${signal}) before answering; stderr:\n${this.stderr}`));
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr, lines: this.lines });
      });
    });
    onTestFinished(() => {
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
    });
  }

  private onStdout(d: string): void {
    this.stdout += d;
    if (!d.includes("\n")) {
      this.partial += d; // only the new chunk is scanned: big answers arrive in many chunks
      return;
    }
    const parts = (this.partial + d).split("\n");
    this.partial = parts.pop()!;
    for (const line of parts) {
      this.lines.push(line);
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        continue; // checked by expectProtocolOnly
      }
      const m = msg as { id?: string | number; method?: unknown; params?: unknown };
      if (typeof m.method === "string" && m.id !== undefined) {
        this.serverRequests.push({ id: m.id, method: m.method, ...(m.params !== undefined ? { params: m.params } : {}) });
        if (this.onRequest !== undefined) this.write(`${JSON.stringify({ jsonrpc: "2.0", id: m.id, result: this.onRequest(m.method, m.params) })}\n`);
        continue;
      }
      const i = this.waiters.findIndex((w) => w.match(msg));
      if (i !== -1) this.waiters.splice(i, 1)[0]!.resolve(msg);
    }
  }

  /** Write raw bytes to the server's stdin. */
  write(text: string | Buffer): void {
    this.child.stdin.write(text);
  }

  /** Wait for the next message with this id (register before writing the request). */
  waitFor(id: string | number | null): Promise<RpcMessage> {
    return new Promise((resolve, reject) => {
      const match = (m: unknown): boolean => m !== null && typeof m === "object" && !Array.isArray(m) && (m as RpcMessage).id === id;
      this.waiters.push({ match, resolve: (m) => resolve(m as RpcMessage), reject });
    });
  }

  /** Wait until `n` stdout lines have arrived. */
  async waitForLines(n: number): Promise<string[]> {
    while (this.lines.length < n) {
      if (this.child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    return this.lines.slice(0, n);
  }

  async request(method: string, params?: unknown, id: string | number = this.nextId++): Promise<RpcMessage> {
    const reply = this.waitFor(id);
    this.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params !== undefined ? { params } : {}) })}\n`);
    return reply;
  }

  notify(method: string, params?: unknown): void {
    this.write(`${JSON.stringify({ jsonrpc: "2.0", method, ...(params !== undefined ? { params } : {}) })}\n`);
  }

  async initialize(protocolVersion = "2025-06-18", capabilities: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const r = await this.request("initialize", { protocolVersion, capabilities, clientInfo: { name: "vitest", version: "1.0.0" } });
    expect(r.error).toBeUndefined();
    this.notify("notifications/initialized");
    return r.result as Record<string, unknown>;
  }

  /**
   * Call a tool. A success must carry structuredContent that matches the tool's
   * output schema and one content block: a text block with the same JSON — or, for the
   * workspace tools named after the MCP filesystem server's, its `content` (their text,
   * or read_media_file's block); a text-answer tool (read_doc) answers with the text block
   * only, whose JSON must match the output schema; an isError result carries text only.
   */
  async call(name: string, args: Record<string, unknown> = {}): Promise<ToolCallResult> {
    const r = await this.request("tools/call", { name, arguments: args });
    expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    const result = r.result as ToolCallResult;
    expect(result.content.length).toBe(1);
    if (result.isError === true) {
      expect(result.content[0]!.type).toBe("text");
      expect(result.structuredContent).toBeUndefined();
    } else if (TEXT_ANSWER.has(name)) {
      expect(result.structuredContent).toBeUndefined();
      expect(result.content[0]!.type).toBe("text");
      const parsed = TOOL_SCHEMAS[name as ToolName].output.safeParse(JSON.parse(result.content[0]!.text));
      expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues)).toBe(true);
    } else {
      expect(result.structuredContent).toBeDefined();
      const content = result.structuredContent!["content"];
      if (Array.isArray(content)) expect(result.content).toEqual(content);
      else if (typeof content === "string" && result.content[0]!.text === content) expect(result.content[0]!.type).toBe("text");
      else {
        expect(result.content[0]!.type).toBe("text");
        expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
      }
      const schema = TOOL_SCHEMAS[name as ToolName]?.output;
      if (schema !== undefined) {
        const parsed = schema.safeParse(result.structuredContent);
        expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues)).toBe(true);
      }
    }
    return result;
  }

  /** A successful call's structured content. */
  async ok<T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}): Promise<T> {
    const r = await this.call(name, args);
    expect(r.isError, r.content[0]?.text).not.toBe(true);
    return (TEXT_ANSWER.has(name) ? JSON.parse(r.content[0]!.text) : r.structuredContent) as T;
  }

  /** A failing call's message (isError: true). */
  async fails(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const r = await this.call(name, args);
    expect(r.isError, r.content[0]?.text).toBe(true);
    return r.content[0]!.text;
  }

  /** Close stdin and wait for the server to exit. */
  async close(): Promise<Closed> {
    this.child.stdin.end();
    return this.closed;
  }
}

/**
 * Every stdout line is one JSON-RPC 2.0 response: an object (or batch array of them) with an id and exactly one of
 * result/error — or a request of the server's own (`roots/list`: an id and a method, nothing else).
 */
export function expectProtocolOnly(lines: readonly string[]): void {
  for (const line of lines) {
    let v: unknown;
    expect(() => (v = JSON.parse(line)), `not JSON: ${line.slice(0, 200)}`).not.toThrow();
    const items = Array.isArray(v) ? v : [v];
    for (const m of items as Array<Record<string, unknown>>) {
      expect(m.jsonrpc).toBe("2.0");
      expect(Object.hasOwn(m, "id")).toBe(true);
      if (typeof m.method === "string") expect(Object.keys(m).sort()).toEqual(["id", "jsonrpc", "method"]);
      else expect(("result" in m ? 1 : 0) + ("error" in m ? 1 : 0)).toBe(1);
    }
  }
}
