/**
 * What the workspace tools cost the paths that do not use them, and what their commands teach:
 * - the pre-commit hook (`check --staged`) and the MCP server's start (initialize,
 *   tools/list) load no chunk of the workspace code (its library, smol-toml, modern-tar,
 *   zstd, whose vendored file dist/vendor/zstd.cjs is imported); the first workspace tool call
 *   does load it (so the probe can see it);
 * - `serve`, `ledger` and `archive` --help show examples and their own exit codes.
 * Which modules load is observed with a module loader hook (node:module register) that
 * writes every loaded URL to a file; which of our source files each loaded output holds, the
 * build says (dist/inputs.json, from esbuild's metafile): nothing looks inside the bundles.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CLI, runCli } from "../helpers/run-cli.js";
import { git, tempDir, tempRepo } from "../helpers/temp-repo.js";

/**
 * The workspace code: our sources under src/workspace/ and the HTTP binding — but the tool
 * names and schemas, which the MCP server's catalog names, and the constants the bin's help and
 * those schemas state (the command timeout, the HTTP defaults) — and its dependencies' files.
 */
const WORKSPACE_SOURCES = /^src\/(http\/(?!http-defaults\.ts$)|workspace\/(?!workspace-tool-names\.ts$|workspace-schemas\.ts$|command-timeout\.ts$))/;
const WORKSPACE_PACKAGES = /node_modules\/(smol-toml|modern-tar|@bokuweb\/zstd-wasm)\/|\/dist\/vendor\/zstd\.cjs$/;
const DIST = join(CLI, "..");
/** Our source files each built output holds (dist-relative output path → src/… inputs). */
const INPUTS = JSON.parse(readFileSync(join(DIST, "inputs.json"), "utf8")) as Record<string, string[]>;
const holdsWorkspaceCode = (output: string): boolean => (INPUTS[output] ?? []).some((i) => WORKSPACE_SOURCES.test(i));

function tracer(): { hook: string; out: string } {
  const dir = tempDir("nr-trace-");
  const hook = join(dir, "trace.mjs");
  const out = join(dir, "loaded.txt");
  const loader = `import { appendFileSync } from "node:fs";
export async function load(url, context, next) { appendFileSync(${JSON.stringify(out)}, url + "\\n"); return next(url, context); }`;
  writeFileSync(hook, `import { register } from "node:module";\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(loader)}`)});\n`);
  writeFileSync(out, "");
  return { hook: pathToFileURL(hook).href, out };
}

/** Loaded files that hold workspace code. */
function workspaceCode(loadedFile: string): string[] {
  const urls = readFileSync(loadedFile, "utf8")
    .split("\n")
    .filter((u) => u.startsWith("file:"));
  return urls.filter((u) => {
    if (WORKSPACE_PACKAGES.test(u)) return true;
    const path = fileURLToPath(u);
    return path.startsWith(`${DIST}/`) && holdsWorkspaceCode(path.slice(DIST.length + 1));
  });
}

function runTraced(args: string[], cwd: string, input?: string): { code: number | null; stdout: string; loaded: string } {
  const t = tracer();
  const r = spawnSync(process.execPath, ["--import", t.hook, CLI, ...args], { cwd, input, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, stdout: r.stdout, loaded: t.out };
}

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
    expect(readFileSync(r.loaded, "utf8")).toContain("/dist/cli.cjs");
    expect(workspaceCode(r.loaded)).toEqual([]);
    // check runs from its body bundle, compiled from its file (no module loader sees it): all of it loads.
    expect(INPUTS["bodies/check.cjs"]).toContain("src/cli/commands/check-command.ts");
    expect(holdsWorkspaceCode("bodies/check.cjs")).toBe(false);
  });

  it("the MCP server starts and lists its tools without loading the workspace code; the first workspace call loads it", () => {
    const root = tempRepo({ "a.txt": "hello\n" });
    const start = runTraced(["mcp"], root, `${INIT}\n${rpc(2, "tools/list")}\n`);
    expect(start.code).toBe(0);
    expect(start.stdout).toContain('"name":"read_file"');
    expect(workspaceCode(start.loaded)).toEqual([]);
    const call = runTraced(["mcp"], root, `${INIT}\n${rpc(2, "tools/call", { name: "read_file", arguments: { path: "a.txt" } })}\n`);
    expect(call.stdout).toContain("hello");
    expect(workspaceCode(call.loaded).length).toBeGreaterThan(0);
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
