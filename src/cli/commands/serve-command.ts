/**
 * `noma-reconcile serve --http [--port N] [--host H]`: the workspace tools over HTTP
 * (src/http/serve-workspace-http.ts) for the repository the command runs in.
 * The bearer token is NOMA_RECONCILE_TOKEN, or one generated now and printed on stderr
 * (and, with `--format json`, in the one JSON line printed on stdout once listening).
 * Runs until SIGINT or SIGTERM, then drains and exits 0. Exit 2: not --http, a host
 * that is not loopback, a bad port, not a git repository, an invalid configuration, or
 * the port cannot be bound.
 */
import { formatJsonEnvelope } from "../../report/json-envelope.js";
import { randomBytes } from "node:crypto";
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_HTTP_PORT,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  loopbackAddress,
  startWorkspaceHttp,
} from "../../http/serve-workspace-http.js";
import { WorkspaceError } from "../../workspace/workspace-error.js";
import { openWorkspace } from "../../workspace/workspace.js";
import { isWorkspaceWriteTool, WORKSPACE_TOOL_NAMES } from "../../workspace/workspace-tool-names.js";
import { RuntimeError, UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { choice, intOption, repoContext } from "../repo-context.js";
import { lockTimeoutFromConfig } from "../../config/lock-timeout-from-config.js";
import { setDefaultLockTimeout } from "../../fsx/with-file-lock.js";

export async function serveCommand(options: Record<string, unknown>, io: CliIO): Promise<number> {
  if (options["http"] !== true) throw new UsageError("serve needs --http (the workspace tools over HTTP); `noma-reconcile mcp` serves them over MCP stdio");
  const format = choice("format", options["format"], ["text", "json"] as const);
  const host = options["host"] === undefined ? "127.0.0.1" : String(options["host"]);
  if (loopbackAddress(host) === null)
    throw new UsageError(
      `--host ${host}: refused — the workspace server binds to loopback only (127.0.0.1, ::1 or localhost); put an authenticating proxy in front of ` +
        `it to reach it from elsewhere`,
    );
  const port = intOption("port", options["port"], DEFAULT_HTTP_PORT, 0, 65535);
  const maxBody = intOption("max-body-bytes", options["maxBodyBytes"], DEFAULT_MAX_BODY_BYTES, 1024, 1 << 30);
  const headersTimeoutMs = intOption("headers-timeout", options["headersTimeout"], DEFAULT_HEADERS_TIMEOUT_MS, 100, 3_600_000);
  const requestTimeoutMs = intOption("request-timeout", options["requestTimeout"], Math.max(headersTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS), 100, 3_600_000);
  if (requestTimeoutMs < headersTimeoutMs)
    throw new UsageError(`--request-timeout ${requestTimeoutMs} is shorter than --headers-timeout ${headersTimeoutMs}: the whole request includes its headers`);
  const maxConnections = intOption("max-connections", options["maxConnections"], DEFAULT_MAX_CONNECTIONS, 1, 100_000);
  const readOnly = options["readOnly"] === true;
  const ctx = repoContext(io.cwd);
  if (!ctx.inRepo) throw new RuntimeError(`not inside a git repository (${io.cwd}): the workspace tools are confined to a repository`);
  // Every request's locks wait as long as lock_timeout of .notarai/config.yaml says (read when a lock is found taken).
  setDefaultLockTimeout(lockTimeoutFromConfig(ctx.root));
  let readOnlyByConfig = false;
  try {
    readOnlyByConfig = openWorkspace(ctx.root, { onWarning: (m) => io.stderr(`warning: ${m}\n`) }).readOnly;
  } catch (e) {
    if (e instanceof WorkspaceError) throw new RuntimeError(e.message);
    throw e;
  }
  const fromEnv = io.env["NOMA_RECONCILE_TOKEN"];
  if (fromEnv !== undefined && fromEnv.length < 16)
    throw new UsageError("NOMA_RECONCILE_TOKEN is shorter than 16 characters: use a long random value (or unset it and one is generated)");
  const token = fromEnv ?? randomBytes(32).toString("base64url");
  let server;
  try {
    server = await startWorkspaceHttp({
      root: ctx.root,
      host,
      port,
      token,
      maxBodyBytes: maxBody,
      headersTimeoutMs,
      requestTimeoutMs,
      maxConnections,
      log: (l) => io.stderr(`noma-reconcile serve: ${l}\n`),
      ...(readOnly ? { workspace: { readOnly: true } } : {}),
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new RuntimeError(`cannot listen on ${host}:${port}: ${err.code ?? ""} ${err.message}`.replace("  ", " "));
  }
  const served = WORKSPACE_TOOL_NAMES.filter((n) => !(readOnly || readOnlyByConfig) || !isWorkspaceWriteTool(n));
  io.stderr(
    `noma-reconcile serve: workspace tools for ${ctx.root} on ${server.url}${readOnly || readOnlyByConfig ? ", read-only" : ""} ` +
      `(POST ${served.map((n) => `/${n}`).join(", ")})\n`,
  );
  io.stderr(
    fromEnv !== undefined
      ? "noma-reconcile serve: bearer token from NOMA_RECONCILE_TOKEN\n"
      : `noma-reconcile serve: bearer token (generated; set NOMA_RECONCILE_TOKEN to choose one): ${token}\n`,
  );
  io.stderr(`noma-reconcile serve: listening on ${server.url}\n`);
  if (format === "json") {
    // For a program that starts the server: where it listens, and the token when it made one.
    io.stdout(
      formatJsonEnvelope(
        "serve",
        {
          ok: true,
          result: {
            url: server.url,
            host: server.host,
            port: server.port,
            root: ctx.root,
            read_only: readOnly || readOnlyByConfig,
            token_source: fromEnv !== undefined ? "NOMA_RECONCILE_TOKEN" : "generated",
            ...(fromEnv === undefined ? { token } : {}),
          },
        },
        true,
      ),
    );
  }
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      io.stderr(`noma-reconcile serve: ${signal}: finishing requests in flight, then stopping\n`);
      void server.close().then(resolve);
    };
    const onInt = (): void => stop("SIGINT");
    const onTerm = (): void => stop("SIGTERM");
    process.on("SIGINT", onInt);
    process.on("SIGTERM", onTerm);
  });
  io.stderr("noma-reconcile serve: stopped\n");
  return 0;
}
