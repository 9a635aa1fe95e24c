/**
 * What the workspace tools cost the paths that do not use them, and what their commands teach:
 * - the pre-commit hook (`check --staged`) and the MCP server's start (initialize,
 *   tools/list) load none of the workspace code (its library, smol-toml, modern-tar,
 *   zstd, whose vendored file is dist/vendor/zstd.cjs); the first workspace tool call
 *   does load it (so the probe can see it);
 * - `serve`, `ledger` and `archive` --help show examples and their own exit codes.
 * Which modules load (ES modules, CommonJS files, and the modules a cached body such as the MCP
 * server's, dist/bodies/services.cjs, initialises) is observed by test/helpers/trace-loads.ts;
 * which of our source files each built output holds, the build says (dist/inputs.json, from
 * esbuild's metafile).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { git, tempDir, tempRepo } from "../helpers/temp-repo.js";
import { INPUTS, loadedSources, type TracedRun, traceLoads } from "../helpers/trace-loads.js";

/**
 * The workspace code: our sources under src/workspace/ and the HTTP binding — but the tool
 * names and schemas, which the MCP server's catalog names, and the constants the bin's help and
 * those schemas state (the command timeout, the HTTP defaults) — and its dependencies' files.
 */
const WORKSPACE_SOURCES = /^src\/(http\/(?!http-defaults\.ts$)|workspace\/(?!workspace-tool-names\.ts$|workspace-schemas\.ts$|command-timeout\.ts$))/;
const WORKSPACE_PACKAGES = /(^|\/)node_modules\/(smol-toml|modern-tar|@bokuweb\/zstd-wasm)\/|^vendor\/zstd\.cjs$/;
const holdsWorkspaceCode = (output: string): boolean => (INPUTS[output] ?? []).some((i) => WORKSPACE_SOURCES.test(i));

/** What a traced run loaded of the workspace code: its sources, its packages' modules and files. */
function workspaceCode(t: TracedRun): string[] {
  return [...loadedSources(t).filter((i) => WORKSPACE_SOURCES.test(i)), ...[...t.inits, ...t.cjs, ...t.esm].filter((p) => WORKSPACE_PACKAGES.test(p))];
}

const runTraced = (args: string[], cwd: string, input?: string): TracedRun => traceLoads(args, input === undefined ? { cwd } : { cwd, input });

const rpc = (id: number, method: string, params: object = {}) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
const INIT = rpc(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } });

describe("start-up cost of the workspace tools", () => {
  it("the pre-commit hook path (check --staged) loads none of the workspace code", () => {
    const root = tempRepo({ "README.md": "x\n" });
    writeFileSync(join(root, "doc.noma"), "---\ntitle: Doc\n---\n# Doc\n\nText.\n");
    writeFileSync(join(root, "src.ts"), "export const a = 1;\n");
    git(root, ["add", "-A"]);
    const r = runTraced(["check", "--staged"], root);
    expect(r.code).toBe(0);
    expect(r.cjs).toContain("cli.cjs");
    expect(workspaceCode(r)).toEqual([]);
    // check runs from its body bundle, compiled from its file (no module loader sees it): all of it loads.
    expect(INPUTS["bodies/check.cjs"]).toContain("src/cli/commands/check-command.ts");
    expect(holdsWorkspaceCode("bodies/check.cjs")).toBe(false);
  });

  it("the MCP server starts and lists its tools without loading the workspace code; the first workspace call loads it", () => {
    const root = tempRepo({ "a.txt": "hello\n" });
    const start = runTraced(["mcp"], root, `${INIT}\n${rpc(2, "tools/list")}\n`);
    expect(start.code).toBe(0);
    expect(start.stdout).toContain('"name":"read_file"');
    expect(loadedSources(start)).toContain("src/mcp/mcp-server.ts");
    expect(workspaceCode(start)).toEqual([]);
    const call = runTraced(["mcp"], root, `${INIT}\n${rpc(2, "tools/call", { name: "read_file", arguments: { path: "a.txt" } })}\n`);
    expect(call.stdout).toContain("hello");
    expect(workspaceCode(call).length).toBeGreaterThan(0);
  });
});

describe("--help of the workspace commands", () => {
  it("serve, ledger and archive teach with examples and their own exit codes", () => {
    const cwd = tempDir("nr-help-");
    const want: Record<string, string[]> = {
      serve: ["--http", "NOMA_RECONCILE_TOKEN", "curl", "--format json", "0  stopped by SIGINT or SIGTERM"],
      ledger: ["ledger verify", "--against", "1  findings: an edited, removed, inserted or reordered line"],
      archive: ["archive restore", "--number", "--stdout", "0  listed (even nothing) or restored"],
    };
    for (const [cmd, words] of Object.entries(want)) {
      const r = runCli([cmd, "--help"], { cwd });
      expect(r.code, cmd).toBe(0);
      expect(r.stdout).toContain("Examples:");
      for (const w of words) expect(r.stdout, `${cmd} --help: ${w}`).toContain(w);
    }
  });
});
