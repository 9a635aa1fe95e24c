/**
 * Read-only servers: `mcp --read-only`, `serve --http --read-only`, and
 * `workspace.read_only: true` in the configuration for both. Every tool that writes or
 * runs a command is left out of `tools/list` and refused when called anyway (a
 * workspace tool's refusal, code `read_only`, is a ledger line like every refusal; over
 * HTTP it is 403); the tools that read still work; nothing on disk changes.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOOL_CATALOG } from "../../src/mcp/tool-catalog.js";
import { verifyLedger } from "../../src/workspace/verify-ledger.js";
import { isWorkspaceTool, WORKSPACE_TOOL_NAMES, WORKSPACE_WRITE_TOOLS } from "../../src/workspace/workspace-tool-names.js";
import { CLI } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";
import { HttpServer } from "./helpers/http-server.js";

/** A call of each tool that writes, that would succeed on a writable server. */
const WRITES: Array<[string, Record<string, unknown>]> = [
  ["edit_file", { path: "a.txt", contents: "changed\n" }],
  ["edit_file", { path: "a.txt", edits: [{ oldText: "one", newText: "uno" }] }],
  ["apply_patch", { path: "a.txt", hunks: [{ start_line: 1, end_line: 1, replacement: "patched" }] }],
  ["write_file", { path: "new.txt", content: "x\n" }],
  ["append_file", { path: "a.txt", content: "more\n" }],
  ["create_directory", { path: "made" }],
  ["move_file", { source: "a.txt", destination: "b.txt" }],
  ["run_command", { command: "echo", args: ["hi"] }],
  ["run_tests", {}],
  ["build_workspace", {}],
];
const OTHER_WRITES: Array<[string, Record<string, unknown>]> = [
  ["mark_reconciled", { files: ["a.txt"] }],
  ["clear_cache", {}],
  ["snapshot_state", {}],
  ["patch_block", { file: "d.noma", op: { op: "delete_block", id: "x" } }],
];

function fixture(config = "workspace:\n  test: [echo, test]\n  build: [echo, build]\n"): string {
  return tempRepo({
    "a.txt": "one\ntwo\n",
    "d.noma": "# Doc\n",
    ".notarai/config.yaml": config,
    "tools/allowed_commands.toml": '[[command]]\nargv = ["echo", "**"]\n',
  });
}

function files(root: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[]).filter((f) => !f.startsWith(".git") && !f.startsWith(".notarai/.cache")).sort();
}

const ledger = (root: string) =>
  readFileSync(join(root, "docs/evidence_ledger.tools.log"), "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as { action: string; details: Record<string, unknown> });

describe("read-only servers", () => {
  it("the tools that write are exactly the catalog's non-read-only workspace tools", () => {
    const writing = TOOL_CATALOG.filter((t) => !t.annotations.readOnlyHint && isWorkspaceTool(t.name)).map((t) => t.name);
    expect([...writing].sort()).toEqual([...WORKSPACE_WRITE_TOOLS].sort());
    // WRITES calls each of them (edit_file in both shapes).
    expect([...new Set(WRITES.map(([t]) => t))].sort()).toEqual([...WORKSPACE_WRITE_TOOLS].sort());
  });

  for (const [how, args, config] of [
    ["mcp --read-only", ["--read-only"], undefined],
    ["workspace.read_only: true", [], "workspace:\n  read_only: true\n  test: [echo, test]\n  build: [echo, build]\n"],
  ] as const) {
    it(`MCP (${how}): only the tools that read are listed; the others are refused, recorded, and change nothing`, async () => {
      const root = fixture(config);
      const before = files(root);
      const c = new McpClient(root, [process.execPath, CLI, "mcp", ...args]);
      await c.initialize();
      const listed = ((await c.request("tools/list")).result as { tools: Array<{ name: string; annotations: { readOnlyHint: boolean } }> }).tools;
      expect(listed.map((t) => t.name)).toEqual(TOOL_CATALOG.filter((t) => t.annotations.readOnlyHint).map((t) => t.name));
      expect(listed).toHaveLength(20);
      for (const [tool, a] of WRITES) {
        const text = await c.fails(tool, a);
        expect(JSON.parse(text), tool).toMatchObject({ success: false, code: "read_only" });
      }
      for (const [tool, a] of OTHER_WRITES) expect(await c.fails(tool, a), tool).toContain(`${tool} is not available: the server is read-only`);
      expect(await c.ok("read_text_file", { path: "a.txt" })).toMatchObject({ content: "one\ntwo\n" });
      expect(await c.ok("list_allowed_directories")).toMatchObject({ read_only: true });
      await c.close();
      expect(files(root)).toEqual([...before, "docs", "docs/evidence_ledger.tools.log"].sort());
      const lines = ledger(root);
      expect(lines.filter((l) => l.details["code"] === "read_only").map((l) => l.action)).toEqual(WRITES.map(([t]) => t));
      expect(lines.some((l) => l.details["phase"] === "intent")).toBe(false);
    });
  }

  for (const [how, args, config] of [
    ["serve --http --read-only", ["--read-only"], undefined],
    ["workspace.read_only: true", [], "workspace:\n  read_only: true\n"],
  ] as const) {
    it(`HTTP (${how}): every endpoint that writes answers 403 read_only, recorded; reads work; nothing changes`, async () => {
      const root = fixture(config);
      const before = files(root);
      const s = await new HttpServer(root, [...args]).ready();
      expect(s.stderr).toContain(", read-only (POST /list_files, /read_file, /read_text_file");
      for (const [tool, a] of WRITES) expect(await s.post(tool, a), tool).toMatchObject({ status: 403, body: { success: false, code: "read_only" } });
      for (const tool of WORKSPACE_TOOL_NAMES.filter((t) => !WORKSPACE_WRITE_TOOLS.includes(t)))
        expect((await s.post(tool, tool === "list_allowed_directories" ? {} : { path: "." })).body["code"], tool).not.toBe("read_only");
      expect(await s.post("read_text_file", { path: "a.txt" })).toMatchObject({ status: 200, body: { content: "one\ntwo\n" } });
      const unknown = await s.post("nope", {});
      expect(unknown.status).toBe(404);
      expect(String(unknown.body["message"])).not.toContain("/write_file");
      expect((await s.stop()).code).toBe(0);
      expect(files(root)).toEqual([...before, "docs", "docs/evidence_ledger.tools.log"].sort());
      expect(verifyLedger(readFileSync(join(root, "docs/evidence_ledger.tools.log")))).toMatchObject({ ok: true, interrupted: [] });
    });
  }
});
