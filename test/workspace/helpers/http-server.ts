/**
 * The real HTTP binding for tests: spawns `node dist/cli.js serve --http --port 0` in a
 * repository, waits for its "listening on" line, and posts JSON to it: `post` with fetch, `send`
 * with node:http.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { request } from "node:http";
import { onTestFinished } from "vitest";
import { CLI } from "../../helpers/run-cli.js";

export const TEST_TOKEN = "test-token-0123456789abcdef";

export interface HttpReply {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

/** What a test may set of a request: the token (null: none; default the test token), headers, a raw body, the method. */
export interface RequestOptions {
  token?: string | null;
  headers?: Record<string, string>;
  raw?: string;
  method?: string;
}

/** The request `post` and `send` make of a tool's body and the options: method, headers, and the body (none for GET and HEAD). */
function requestParts(
  body: unknown,
  init: RequestOptions,
): { method: string; headers: Record<string, string>; bodyless: boolean; payload: string | undefined } {
  const headers: Record<string, string> = { "content-type": "application/json", ...init.headers };
  const token = init.token === undefined ? TEST_TOKEN : init.token;
  if (token !== null) headers["authorization"] = `Bearer ${token}`;
  const method = init.method ?? "POST";
  return { method, headers, bodyless: method === "GET" || method === "HEAD", payload: init.raw ?? JSON.stringify(body) };
}

export class HttpServer {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = "";
  stdout = "";
  url = "";
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(cwd: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
    this.child = spawn(process.execPath, [CLI, "serve", "--http", "--port", "0", ...args], {
      cwd,
      env: { ...process.env, NOMA_RECONCILE_TOKEN: TEST_TOKEN, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (d: string) => (this.stderr += d));
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (d: string) => (this.stdout += d));
    this.exited = new Promise((resolve) => this.child.on("close", (code, signal) => resolve({ code, signal })));
    onTestFinished(() => {
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
    });
  }

  /** Wait until the server listens (or exits): woken by its output and its exit, not by polling. */
  async ready(): Promise<this> {
    const listening = (): boolean => {
      const m = /listening on (http:\/\/\S+)/.exec(this.stderr);
      if (m !== null) this.url = m[1]!;
      return m !== null;
    };
    if (listening()) return this;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`serve did not start: ${this.stderr}`)), 30_000);
      const onData = (): void => {
        if (listening()) done();
      };
      const onClose = (): void => done(listening() ? undefined : new Error(`serve exited ${this.child.exitCode}: ${this.stderr}`));
      const done = (error?: Error): void => {
        clearTimeout(timer);
        this.child.stderr.off("data", onData);
        this.child.off("close", onClose);
        if (error === undefined) resolve();
        else reject(error);
      };
      // Registered after the listener that appends to this.stderr, so each chunk is already in it.
      this.child.stderr.on("data", onData);
      this.child.on("close", onClose);
      if (this.child.exitCode !== null || this.child.signalCode !== null) onClose();
    });
    return this;
  }

  async post(tool: string, body: unknown, init: RequestOptions = {}): Promise<HttpReply> {
    const { method, headers, bodyless, payload } = requestParts(body, init);
    const res = await fetch(`${this.url}/${tool}`, { method, headers, ...(bodyless ? {} : { body: payload }) });
    const text = await res.text();
    return { status: res.status, body: text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: res.headers };
  }

  /**
   * What `post` does, over node:http instead of fetch: undici's client costs ≈ 2.3 ms of CPU per
   * request against ≈ 0.4 ms, and the kill -9 and escape-matrix tests send thousands (the server
   * sees the same requests). Not for the tests of connection limits: a request sent right after a
   * held connection closed, before the server has seen the close, is refused as it arrives
   * (--max-connections) and fails here with ECONNRESET (1 run in 4 of http-slow-clients under load),
   * where through fetch it did not fail in as many runs; those keep `post`.
   */
  async send(tool: string, body: unknown, init: RequestOptions = {}): Promise<HttpReply> {
    const parts = requestParts(body, init);
    const { method, headers } = parts;
    const payload = parts.bodyless ? undefined : (parts.payload ?? "");
    if (payload !== undefined) headers["content-length"] = String(Buffer.byteLength(payload));
    const url = new URL(`${this.url}/${tool}`);
    const { status, text, replyHeaders } = await new Promise<{ status: number; text: string; replyHeaders: Headers }>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method, headers }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (d: Buffer) => parts.push(d));
        res.on("error", reject);
        res.on("close", () => {
          if (!res.complete) reject(new Error(`the connection closed before the answer to ${tool} was complete`));
        });
        res.on("end", () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) for (const one of Array.isArray(v) ? v : [v]) h.append(k, one);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString("utf8"), replyHeaders: h });
        });
      });
      req.on("error", reject);
      req.end(payload);
    });
    return { status, body: text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: replyHeaders };
  }

  /** Send a signal and wait for the exit. */
  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.kill(signal);
    return this.exited;
  }

  wait(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return this.exited;
  }
}
