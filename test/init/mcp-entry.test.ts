/**
 * The `.mcp.json` entry `init` writes, started exactly as an MCP client starts
 * it (its command and args, cwd = the repository root), with `npx` and `npm`
 * stubs that record being called: with the repository's own install it is the
 * server (initialize, tools/list) and never calls npx or npm; with nothing
 * installed it exits 1 with one line on stderr and nothing on stdout. The entry reads as a
 * plain command (`node .notarai/noma-reconcile.cjs mcp`, the launcher init writes), and the
 * one-line `node -e` entry earlier versions wrote keeps working and is migrated by `init`.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LEGACY_MCP_SERVER_ENTRIES } from "../../src/internal.js";
import { installLocally, networkStubs } from "../helpers/local-install.js";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";

interface Entry {
  type: string;
  command: string;
  args: string[];
}

function initEntry(repo: string): Entry {
  expect(runCli(["init"], { cwd: repo }).code).toBe(0);
  return (JSON.parse(readFileSync(join(repo, ".mcp.json"), "utf8")) as { mcpServers: Record<string, Entry> }).mcpServers["noma-reconcile"]!;
}

describe("the .mcp.json entry init writes", () => {
  it("starts the repository's own install with node, no npx, no shell", async () => {
    const stubs = networkStubs();
    const repo = tempRepo({ "src/a.ts": "a\n" });
    installLocally(repo);
    const entry = initEntry(repo);
    expect(entry).toEqual({ type: "stdio", command: "node", args: [".notarai/noma-reconcile.cjs", "mcp"] });
    expect(readFileSync(join(repo, ".notarai/noma-reconcile.cjs"), "utf8")).toMatch(
      /^\/\/ noma-reconcile launcher: runs the project's own noma-reconcile; never npx/,
    );
    const c = new McpClient(repo, [entry.command, ...entry.args], { PATH: stubs.path });
    const hello = await c.initialize("2025-11-25");
    expect(hello.protocolVersion).toBe("2025-11-25");
    const tools = ((await c.request("tools/list")).result as { tools: unknown[] }).tools;
    expect(tools.length).toBeGreaterThan(0);
    const closed = await c.close();
    expect(closed.code).toBe(0);
    expect(stubs.calls()).toBe("");
  });

  it("with nothing installed: exit 1, one line on stderr, nothing on stdout, no npx", () => {
    const stubs = networkStubs();
    const repo = tempRepo({ "src/a.ts": "a\n" });
    const entry = initEntry(repo);
    const r = spawnSync(entry.command, entry.args, { cwd: repo, encoding: "utf8", input: "", env: { ...process.env, PATH: stubs.path } });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `noma-reconcile: the MCP server cannot start: noma-reconcile is not installed in ${repo} (no node_modules/noma-reconcile). Install it: npm i -D noma-reconcile\n`,
    );
    expect(stubs.calls()).toBe("");
  });

  it("the one-line node -e entry earlier versions wrote still starts the server, and init migrates it to the launcher", async () => {
    const stubs = networkStubs();
    const legacy = LEGACY_MCP_SERVER_ENTRIES.find((e) => e["command"] === "node") as unknown as Entry;
    expect(legacy.args[0]).toBe("-e");
    const repo = tempRepo({ ".mcp.json": `${JSON.stringify({ mcpServers: { github: { command: "gh-mcp" }, "noma-reconcile": legacy } }, null, 2)}\n` });
    installLocally(repo);
    const old = new McpClient(repo, [legacy.command, ...legacy.args], { PATH: stubs.path });
    expect((await old.initialize("2025-11-25")).protocolVersion).toBe("2025-11-25");
    expect((await old.close()).code).toBe(0);
    const r = runCli(["init"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^updated +\.mcp\.json +\(the noma-reconcile entry an earlier version wrote now reads `node \.notarai\/noma-reconcile\.cjs mcp`; other servers kept\)$/m,
    );
    expect(r.stdout).toMatch(/^created +\.notarai\/noma-reconcile\.cjs/m);
    const entry = (JSON.parse(readFileSync(join(repo, ".mcp.json"), "utf8")) as { mcpServers: Record<string, Entry> }).mcpServers;
    expect(entry).toEqual({
      github: { command: "gh-mcp" },
      "noma-reconcile": { type: "stdio", command: "node", args: [".notarai/noma-reconcile.cjs", "mcp"] },
    });
    const c = new McpClient(repo, [entry["noma-reconcile"]!.command, ...entry["noma-reconcile"]!.args], { PATH: stubs.path });
    expect((await c.initialize("2025-11-25")).protocolVersion).toBe("2025-11-25");
    expect((await c.close()).code).toBe(0);
    expect(stubs.calls()).toBe("");
  });
});
