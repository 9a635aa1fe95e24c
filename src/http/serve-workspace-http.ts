/**
 * The HTTP binding of the workspace tools: `POST /<tool>` with the NOA JSON request as
 * body, the NOA JSON response back (node:http, no framework).
 *
 * - Bound to loopback only (127.0.0.1, ::1; `localhost` means 127.0.0.1): anything
 *   else is refused before a socket is opened.
 * - Every request needs `Authorization: Bearer <token>` (compared in constant time);
 *   unauthenticated requests get 401 and are not recorded (they must not be able to
 *   write to a file kept in source control). A `Host` that is not a loopback name, or
 *   any `Origin` header (a browser), gets 403: a web page cannot reach the server
 *   through DNS rebinding even before the token is checked. Every authenticated
 *   request is recorded in the ledger, those refused here too (an unknown endpoint as
 *   `unknown_endpoint`).
 * - Status codes: 200 a result (a command that exited non-zero included), 400 bad JSON
 *   or arguments, 401, 403 refused (outside the repository, protected, not
 *   allowlisted), 404 unknown route or missing file, 405 not POST, 409 the path
 *   changed or a hunk is out of range, 413 body or file too large, 415 not JSON, 422
 *   not UTF-8, 500 server faults, 501 run_tests/build_workspace not configured, 503 a
 *   lock timed out. Every error body is `{"success":false,"message":…,"code":…}`.
 * - close(): stop accepting, stop running commands (their process groups are
 *   killed), let requests in flight finish and be recorded, then close every socket.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { recordRefusal, runWorkspaceTool } from "../workspace/run-workspace-tool.js";
import { WorkspaceError } from "../workspace/workspace-error.js";
import { isWorkspaceTool, WORKSPACE_TOOL_NAMES } from "../workspace/workspace-tool-names.js";
import { openWorkspace, type WorkspaceOptions } from "../workspace/workspace.js";

import { DEFAULT_HTTP_PORT, DEFAULT_MAX_BODY_BYTES } from "./http-defaults.js";

export { DEFAULT_HTTP_PORT, DEFAULT_MAX_BODY_BYTES };
const LOOPBACK: Record<string, string> = { "127.0.0.1": "127.0.0.1", localhost: "127.0.0.1", "::1": "::1", "[::1]": "::1" };

/** The address to bind for a `--host` value, or null when it is not loopback. */
export function loopbackAddress(host: string): string | null {
  return LOOPBACK[host.toLowerCase()] ?? null;
}

export interface WorkspaceHttpOptions {
  /** The repository root. */
  root: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  token: string;
  maxBodyBytes?: number;
  /** Log lines (stderr). */
  log?: (line: string) => void;
  workspace?: WorkspaceOptions;
  /** How long close() waits for requests in flight (ms, default 10 000). */
  drainMs?: number;
}

export interface WorkspaceHttpServer {
  url: string;
  host: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

const digest = (s: string): Buffer => createHash("sha256").update(s, "utf8").digest();

/** Constant-time token check (both sides hashed first, so lengths leak nothing). */
export function tokenMatches(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  const given = m?.[1] ?? "";
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

function send(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...headers,
  });
  res.end(text);
}

const fail = (code: string, message: string): object => ({ success: false, message, code });

function hostAllowed(hostHeader: string | undefined, port: number): boolean {
  if (hostHeader === undefined) return false;
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(hostHeader.trim());
  if (m === null) return false;
  const name = m[1]!.toLowerCase();
  if (loopbackAddress(name) === null) return false;
  return m[2] === undefined || Number(m[2]) === port;
}

/** Read the body up to `max` bytes; null when it is larger. */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (d: Buffer) => {
      if (over) return;
      size += d.length;
      if (size > max) {
        over = true;
        resolve(null);
        return;
      }
      parts.push(d);
    });
    req.on("end", () => {
      if (!over) resolve(Buffer.concat(parts));
    });
    req.on("error", reject);
  });
}

export function startWorkspaceHttp(options: WorkspaceHttpOptions): Promise<WorkspaceHttpServer> {
  const host = loopbackAddress(options.host ?? "127.0.0.1");
  if (host === null)
    return Promise.reject(
      new WorkspaceError("invalid_arguments", `--host ${options.host}: the workspace server binds to loopback only (127.0.0.1, ::1 or localhost)`),
    );
  if (options.token.length < 16) return Promise.reject(new WorkspaceError("invalid_arguments", "the bearer token must be at least 16 characters"));
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const log = options.log ?? (() => undefined);
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  let port = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const url = req.url ?? "/";
    const route = url.split("?")[0]!;
    const done = (status: number, body: object, headers?: Record<string, string>): void => {
      send(res, status, body, headers);
      log(`${req.method ?? "?"} ${route} ${status} ${Math.round(performance.now() - started)} ms`);
    };
    if (!hostAllowed(req.headers.host, port)) return done(403, fail("forbidden_host", `Host ${JSON.stringify(req.headers.host ?? "")} is not a loopback name`));
    if (req.headers.origin !== undefined) return done(403, fail("forbidden_origin", "requests from web pages (with an Origin header) are refused"));
    if (!tokenMatches(req.headers.authorization, options.token))
      return done(401, fail("unauthorized", "missing or wrong bearer token (Authorization: Bearer <token>)"), {
        "www-authenticate": 'Bearer realm="noma-reconcile"',
      });
    let ws;
    try {
      ws = openWorkspace(options.root, { ...options.workspace, onWarning: (m) => log(`warning: ${m}`) });
    } catch (e) {
      if (e instanceof WorkspaceError) return done(500, fail(e.code, e.message));
      throw e;
    }
    const name = route.startsWith("/") ? route.slice(1) : route;
    const known = isWorkspaceTool(name);
    // An authenticated request refused here is recorded like any other refusal.
    const refuse = async (status: number, code: string, message: string, headers?: Record<string, string>): Promise<void> => {
      const details = { method: req.method ?? "", ...(known ? {} : { route: route.length > 200 ? `${route.slice(0, 200)}…` : route }) };
      const outcome = await recordRefusal(ws, known ? name : "unknown_endpoint", { code, message, status, details }, { via: "http", log });
      done(outcome.status, outcome.body, headers);
    };
    if (!known)
      return refuse(
        404,
        "not_found",
        `no such endpoint ${JSON.stringify(route.length > 200 ? `${route.slice(0, 200)}…` : route)}; endpoints: ${WORKSPACE_TOOL_NAMES.map((n) => `POST /${n}`).join(", ")}`,
      );
    if (req.method !== "POST") return refuse(405, "method_not_allowed", `${req.method} ${route}: use POST`, { allow: "POST" });
    const type = req.headers["content-type"];
    // curl -d sends application/x-www-form-urlencoded, fetch a string as text/plain: the body is read as JSON all the same.
    if (type !== undefined && !/^(application\/(json|x-www-form-urlencoded)|text\/plain)\s*(;|$)/i.test(type))
      return refuse(415, "unsupported_media_type", `content-type ${JSON.stringify(type)}: send application/json`);
    const length = Number(req.headers["content-length"] ?? "0");
    if (Number.isFinite(length) && length > maxBody) {
      res.setHeader("connection", "close");
      await refuse(413, "too_large", `the body is ${length} bytes, more than ${maxBody}`);
      req.destroy();
      return;
    }
    const body = await readBody(req, maxBody);
    if (body === null) {
      res.setHeader("connection", "close");
      await refuse(413, "too_large", `the body is more than ${maxBody} bytes`);
      req.destroy();
      return;
    }
    let args: unknown = {};
    let unreadable: string | undefined;
    const text = body.toString("utf8");
    if (text.trim().length > 0) {
      try {
        args = JSON.parse(text);
      } catch (e) {
        unreadable = `the body is not JSON (${(e as Error).message})`;
      }
    }
    const outcome = await runWorkspaceTool(ws, name, args, { via: "http", signal: stopping.signal, log, ...(unreadable !== undefined ? { unreadable } : {}) });
    done(outcome.status, outcome.body);
  };

  const server = createServer((req, res) => {
    const p = handle(req, res)
      .catch((e: unknown) => {
        log(`internal error: ${(e as Error).stack ?? String(e)}`);
        if (!res.headersSent) send(res, 500, fail("internal", `internal error: ${(e as Error).message}`));
        else res.destroy();
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  });
  server.on("clientError", (_e, socket) => {
    if (socket.writable)
      socket.end(
        'HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"success":false,"message":"malformed HTTP request","code":"bad_request"}',
      );
    else socket.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host, port: options.port ?? DEFAULT_HTTP_PORT, exclusive: true }, () => {
      server.off("error", reject);
      port = (server.address() as AddressInfo).port;
      const shownHost = host.includes(":") ? `[${host}]` : host;
      let closing: Promise<void> | undefined;
      resolve({
        url: `http://${shownHost}:${port}`,
        host,
        port,
        server,
        close: () =>
          (closing ??= (async () => {
            server.close();
            stopping.abort();
            server.closeIdleConnections();
            const deadline = new Promise((r) => setTimeout(r, options.drainMs ?? 10_000).unref());
            await Promise.race([Promise.allSettled([...inFlight]), deadline]);
            server.closeAllConnections();
          })()),
      });
    });
  });
}
