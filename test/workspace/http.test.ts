/**
 * `noma-reconcile serve --http` as a client meets it (the real binary):
 * - refuses a missing or wrong bearer token (401, WWW-Authenticate), before routing,
 *   and does not record such requests; accepts the right one;
 * - 404 unknown endpoint, 405 not POST (Allow), 415 not JSON, 413 too large a body,
 *   400 bad JSON, 403 a non-loopback Host or an Origin header — all JSON bodies; every
 *   authenticated request is recorded in the ledger, refused ones included;
 * - refuses to bind anything but loopback (exit 2), a short token, no --http;
 * - SIGTERM while a command runs: the command is stopped, the request answered and
 *   recorded, the server exits 0.
 */
import { request } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tokenMatches } from "../../src/http/serve-workspace-http.js";
import { verifyLedger } from "../../src/workspace/verify-ledger.js";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { HttpServer, TEST_TOKEN } from "./helpers/http-server.js";

const lines = (root: string) =>
  readFileSync(join(root, "docs/evidence_ledger.tools.log"), "utf8")
    .trimEnd()
    .split("\n")
    .filter((l) => l.length > 0);

/** A raw request (fetch would refuse to send some of these). */
function raw(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | string },
): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, unknown> }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method: options.method ?? "POST", path: options.path, headers: options.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (d: Buffer) => parts.push(d));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString() || "{}") as Record<string, unknown>, headers: res.headers }),
      );
    });
    req.on("error", reject);
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

describe("serve --http", () => {
  it("requires the bearer token (missing or wrong: 401, unrecorded) and answers with it", async () => {
    const root = tempRepo({ "a.txt": "hello\n" });
    const s = await new HttpServer(root).ready();
    for (const token of [null, "wrong-token-0123456789", `${TEST_TOKEN}x`, TEST_TOKEN.slice(0, -1), ""]) {
      const r = await s.post("read_file", { path: "a.txt" }, { token });
      expect(r.status, String(token)).toBe(401);
      expect(r.body).toMatchObject({ success: false, code: "unauthorized" });
      expect(r.headers.get("www-authenticate")).toContain("Bearer");
    }
    expect((await s.post("nope", {}, { token: null })).status).toBe(401); // before routing: nothing is revealed
    const basic = await raw(s.url, {
      path: "/read_file",
      headers: { authorization: `Basic ${Buffer.from(`u:${TEST_TOKEN}`).toString("base64")}`, "content-type": "application/json" },
      body: '{"path":"a.txt"}',
    });
    expect(basic.status).toBe(401);
    const ok = await s.post("read_file", { path: "a.txt" });
    expect(ok).toMatchObject({ status: 200, body: { success: true, path: "a.txt", contents: "hello\n" } });
    expect(lines(root)).toHaveLength(1);
    expect((await s.stop()).code).toBe(0);
  });

  it("answers routing, method, media type, size and JSON errors with JSON bodies and the right status", async () => {
    const root = tempRepo({ "a.txt": "hello\n" });
    const s = await new HttpServer(root, ["--max-body-bytes", "4096"]).ready();
    const auth = { authorization: `Bearer ${TEST_TOKEN}` };
    expect(await s.post("unknown_tool", {})).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect(await s.post("", {})).toMatchObject({ status: 404 });
    const get = await s.post("read_file", undefined, { method: "GET" });
    expect(get).toMatchObject({ status: 405, body: { code: "method_not_allowed" } });
    expect(get.headers.get("allow")).toBe("POST");
    expect(await s.post("read_file", { path: "a.txt" }, { headers: { "content-type": "text/xml" } })).toMatchObject({
      status: 415,
      body: { code: "unsupported_media_type" },
    });
    expect(await s.post("read_file", null, { raw: "{not json" })).toMatchObject({ status: 400, body: { code: "invalid_arguments" } });
    expect(await s.post("read_file", { path: "missing.txt" })).toMatchObject({ status: 404, body: { code: "not_found" } });
    const big = await raw(s.url, {
      path: "/edit_file",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ path: "a.txt", contents: "x".repeat(10_000) }),
    });
    expect(big).toMatchObject({ status: 413, body: { success: false, code: "too_large" } });
    const chunked = await raw(s.url, {
      path: "/edit_file",
      headers: { ...auth, "content-type": "application/json", "transfer-encoding": "chunked" },
      body: JSON.stringify({ path: "a.txt", contents: "y".repeat(10_000) }),
    });
    expect(chunked).toMatchObject({ status: 413, body: { code: "too_large" } });
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("hello\n");
    expect(
      await raw(s.url, { path: "/read_file", headers: { ...auth, host: "evil.example:80", "content-type": "application/json" }, body: '{"path":"a.txt"}' }),
    ).toMatchObject({ status: 403, body: { code: "forbidden_host" } });
    expect(
      await raw(s.url, {
        path: "/read_file",
        headers: { ...auth, origin: "http://evil.example", "content-type": "application/json" },
        body: '{"path":"a.txt"}',
      }),
    ).toMatchObject({ status: 403, body: { code: "forbidden_origin" } });
    // curl -d sends form encoding: read as JSON all the same
    expect(
      await raw(s.url, { path: "/read_file", headers: { ...auth, "content-type": "application/x-www-form-urlencoded" }, body: '{"path":"a.txt"}' }),
    ).toMatchObject({ status: 200, body: { success: true } });
    expect(await raw(s.url, { path: "/read_file", headers: { ...auth, "content-type": "text/plain;charset=UTF-8" }, body: '{"path":"a.txt"}' })).toMatchObject({
      status: 200,
      body: { success: true },
    });
    // the server is still healthy after all that
    expect((await s.post("list_files", {})).status).toBe(200);
    expect((await s.stop()).code).toBe(0);
    expect(verifyLedger(readFileSync(join(root, "docs/evidence_ledger.tools.log"))).ok).toBe(true);
    // Every authenticated request is a ledger line, those refused before reaching a tool too;
    // the Host and Origin refusals (checked before the token) are not.
    const recorded = lines(root).map((l) => JSON.parse(l) as { action: string; details: { code?: string; outcome: string; via: string } });
    expect(recorded.map((e) => `${e.action}:${e.details.code ?? e.details.outcome}`)).toEqual([
      "unknown_endpoint:not_found",
      "unknown_endpoint:not_found",
      "read_file:method_not_allowed",
      "read_file:unsupported_media_type",
      "read_file:invalid_arguments",
      "read_file:not_found",
      "edit_file:too_large",
      "edit_file:too_large",
      "read_file:ok",
      "read_file:ok",
      "list_files:ok",
    ]);
    expect(recorded.every((e) => e.details.via === "http")).toBe(true);
  });

  it("refuses non-loopback binds, a short token and a missing --http (exit 2)", () => {
    const root = tempRepo({ "a.txt": "x" });
    for (const host of ["0.0.0.0", "::", "192.168.1.10", "example.com", "127.0.0.2"]) {
      const r = runCli(["serve", "--http", "--host", host, "--port", "0"], { cwd: root, env: { NOMA_RECONCILE_TOKEN: TEST_TOKEN } });
      expect(r.code, host).toBe(2);
      expect(r.stderr).toContain("loopback only");
    }
    expect(runCli(["serve", "--http", "--port", "0"], { cwd: root, env: { NOMA_RECONCILE_TOKEN: "short" } })).toMatchObject({ code: 2 });
    expect(runCli(["serve"], { cwd: root }).code).toBe(2);
    expect(runCli(["serve", "--http", "--port", "70000"], { cwd: root }).code).toBe(2);
  });

  it("generates a token when none is given and prints it on stderr (and in the --format json line)", async () => {
    const root = tempRepo({ "a.txt": "x" });
    const s = await new HttpServer(root, [], { NOMA_RECONCILE_TOKEN: undefined }).ready();
    const token = /bearer token \(generated[^)]*\): (\S+)/.exec(s.stderr)?.[1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect((await s.post("read_file", { path: "a.txt" }, { token: token! })).status).toBe(200);
    expect((await s.post("read_file", { path: "a.txt" })).status).toBe(401);
    expect(s.stdout).toBe(""); // text: results only on stderr
    await s.stop();
    // --format json: one line on stdout once listening, for a program that starts the server
    const j = await new HttpServer(root, ["--format", "json"], { NOMA_RECONCILE_TOKEN: undefined }).ready();
    for (let i = 0; i < 500 && !j.stdout.includes("\n"); i++) await new Promise((r) => setTimeout(r, 10));
    const info = (JSON.parse(j.stdout) as { result: { url: string; port: number; token: string; token_source: string } }).result;
    expect(info).toMatchObject({ url: j.url, token_source: "generated" });
    expect(j.url).toContain(`:${info.port}`);
    expect((await j.post("read_file", { path: "a.txt" }, { token: info.token })).status).toBe(200);
    await j.stop();
    const e = await new HttpServer(root, ["--format", "json"]).ready();
    for (let i = 0; i < 500 && !e.stdout.includes("\n"); i++) await new Promise((r) => setTimeout(r, 10));
    expect(JSON.parse(e.stdout).result).not.toHaveProperty("token"); // chosen by the caller: never echoed
    await e.stop();
    expect(runCli(["serve", "--http", "--format", "yaml"], { cwd: root }).code).toBe(2);
  });

  it("stops on SIGTERM: a running command is killed, its request answered and recorded, exit 0", async () => {
    const root = tempRepo({ "tools/allowed_commands.toml": '[[command]]\nargv = ["sleep", "*"]\n' });
    const s = await new HttpServer(root).ready();
    const pending = s.post("run_command", { command: "sleep", args: ["60"] });
    await new Promise((r) => setTimeout(r, 500));
    const exited = s.stop("SIGTERM");
    const r = await pending;
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: false, message: "stopped: the server is shutting down" });
    expect((await exited).code).toBe(0);
    expect(s.stderr).toContain("SIGTERM: finishing requests in flight");
    // The command's intent before it started, its outcome after it was stopped.
    const ledger = lines(root).map((l) => JSON.parse(l) as { action: string; details: Record<string, unknown> });
    expect(ledger.map((l) => [l.action, l.details["phase"]])).toEqual([
      ["run_command", "intent"],
      ["run_command", "outcome"],
    ]);
    expect(ledger[1]!.details["intent_seq"]).toBe(1);
  });

  it("refuses to overwrite a .noma document or write a transcript, naming ways to edit that exist (HTTP has no patch_block)", async () => {
    const root = tempRepo({ "d.noma": "# Doc\n", "d.noma.patches": "" });
    const s = await new HttpServer(root).ready();
    const doc = await s.post("edit_file", { path: "d.noma", contents: "# Overwritten\n" });
    expect(doc).toMatchObject({ status: 403, body: { success: false, code: "protected_path" } });
    expect(doc.body["message"]).toContain("`noma-reconcile patch` on the command line");
    const transcript = await s.post("edit_file", { path: "d.noma.patches", contents: "{}\n" });
    expect(transcript).toMatchObject({ status: 403, body: { code: "protected_path" } });
    expect(transcript.body["message"]).toContain("`noma-reconcile patch` on the command line");
    expect(readFileSync(join(root, "d.noma"), "utf8")).toBe("# Doc\n");
    expect((await s.stop()).code).toBe(0);
  });

  it("compares tokens in constant time over their hashes", () => {
    expect(tokenMatches(`Bearer ${TEST_TOKEN}`, TEST_TOKEN)).toBe(true);
    expect(tokenMatches(`bearer   ${TEST_TOKEN} `, TEST_TOKEN)).toBe(true);
    expect(tokenMatches(`Bearer ${TEST_TOKEN}extra`, TEST_TOKEN)).toBe(false);
    expect(tokenMatches("Bearer", TEST_TOKEN)).toBe(false);
    expect(tokenMatches(undefined, TEST_TOKEN)).toBe(false);
    expect(tokenMatches(`Token ${TEST_TOKEN}`, TEST_TOKEN)).toBe(false);
  });
});
