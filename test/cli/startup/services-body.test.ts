/**
 * The shared body of the run loop, its records, the servers and the workspace commands
 * (dist/bodies/services.cjs, src/cli/bodies/services-body.ts), compiled through the compile cache
 * with one cache file per command: the real CLI, spawned. For each command below: the output is
 * the same with the cache off (the command's ES module), on its first run (compiled from source,
 * its cache file written) and on a run from that cache (accepted by V8: the file is not replaced).
 * The servers read their requests from stdin and end when it closes; the language server's
 * protocol library ends the process itself, and its cache is saved at exit. `run`, `reconcile`,
 * `demo` and `serve --http` run from the body in their own tests (test/runs/, test/reconcile/,
 * test/report/json-output.test.ts, test/workspace/http*), which spawn them hundreds of times.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { services } from "../../../src/cli/bodies/services-body.js";
import { cachePayload } from "../../../src/cli/startup/load-cached-body.js";
import { runCli } from "../../helpers/run-cli.js";
import { git } from "../../helpers/temp-repo.js";

const rpc = (id: number, method: string, params: object = {}) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
const MCP_INPUT = `${rpc(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } })}\n${rpc(2, "tools/list")}\n`;
const lsp = (...messages: object[]): string =>
  messages
    .map((m) => JSON.stringify({ jsonrpc: "2.0", ...m }))
    .map((m) => `Content-Length: ${Buffer.byteLength(m)}\r\n\r\n${m}`)
    .join("");
const LSP_INPUT = lsp(
  { id: 1, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } },
  { method: "initialized", params: {} },
  { id: 2, method: "shutdown" },
  { method: "exit" },
);

/** Each command run here, with arguments (and stdin) that give it work to do in the repository below. */
const RUNS: Array<[keyof typeof services, string[], string?]> = [
  ["runs", ["runs", "list", "--format", "json"]],
  ["ledger", ["ledger", "verify", "--format", "json"]],
  ["archive", ["archive", "list", "--format", "json"]],
  ["mcp", ["mcp"], MCP_INPUT],
  ["lsp", ["lsp", "--stdio"], LSP_INPUT],
];
/** The body's other commands, run from it by their own tests (above). */
const ELSEWHERE = ["run", "reconcile", "demo", "serve"];

let base: string;
let repo: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "nr-services-body-"));
  repo = join(base, "repo");
  mkdirSync(repo);
  git(repo, ["init", "-q", "-b", "main"]);
  git(repo, ["config", "user.name", "Test"]);
  git(repo, ["config", "user.email", "test@example.invalid"]);
  writeFileSync(join(repo, "a.txt"), "hello\n");
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-qm", "initial"]);
  // A workspace request, so that the ledger has a line to verify.
  const read = `${MCP_INPUT.split("\n")[0]}\n${rpc(2, "tools/call", { name: "read_file", arguments: { path: "a.txt" } })}\n`;
  expect(runCli(["mcp"], { cwd: repo, input: read, env: { NOMA_RECONCILE_COMPILE_CACHE: "0" } }).stdout).toContain('"contents":"hello\\n"');
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("the shared body of the run loop, the servers and the workspace commands", () => {
  it("runs every command it holds (the tables above name each)", () => {
    expect([...RUNS.map(([c]) => c), ...ELSEWHERE].sort()).toEqual(Object.keys(services).sort());
  });

  it.each(RUNS)("%s: the same output with the cache off, on the run that writes its cache file and on a run from it", (command, args, input) => {
    const dir = join(base, `cc-${command}`);
    const run = (env: NodeJS.ProcessEnv) => runCli(args, { cwd: repo, env, ...(input !== undefined ? { input } : {}) });
    const off = run({ NOMA_RECONCILE_COMPILE_CACHE: "0", NOMA_RECONCILE_COMPILE_CACHE_DIR: dir });
    expect(off.stdout.length).toBeGreaterThan(0); // the output compared below is not an empty one
    expect(readdirSync(base)).not.toContain(`cc-${command}`);
    const first = run({ NOMA_RECONCILE_COMPILE_CACHE_DIR: dir });
    expect(first).toEqual(off);
    const names = readdirSync(dir);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(new RegExp(`^services-${command}-[0-9a-f]{16}-${process.version.replaceAll(".", "\\.")}-${process.arch}\\.bin$`));
    const file = join(dir, names[0]!);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(cachePayload(readFileSync(file))?.length).toBeGreaterThan(0);
    const before = statSync(file);
    const second = run({ NOMA_RECONCILE_COMPILE_CACHE_DIR: dir });
    expect(second).toEqual(off);
    // Accepted by V8: a refused cache would have been replaced (a new file renamed over it).
    const after = statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(readdirSync(dir)).toEqual(names);
  });
});
