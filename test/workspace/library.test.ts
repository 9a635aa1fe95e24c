/**
 * The workspace tools as the library gives them (src/index.ts, and the same names from the
 * published bundle dist/index.js) — what the run loop and other programs build on: open a
 * workspace, run each tool, record a binding's refusal, serve HTTP, verify the ledger, read
 * the archive; and the NOA tool names and schemas.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as lib from "../../src/index.js";
import { tempRepo } from "../helpers/temp-repo.js";

const DIST = new URL("../../dist/index.js", import.meta.url).href;
const WORKSPACE_EXPORTS = [
  "openWorkspace",
  "Workspace",
  "runWorkspaceTool",
  "recordRefusal",
  "WORKSPACE_TOOL_NAMES",
  "WORKSPACE_SCHEMAS",
  "WorkspaceError",
  "startWorkspaceHttp",
  "appendLedger",
  "verifyLedger",
  "listArchived",
  "readArchived",
  "parseAllowlist",
  "matchAllowlist",
  "applyHunks",
  "DEFAULT_HTTP_PORT",
];

describe("the workspace library (dist/index.js)", () => {
  it("exports the seven tools, their schemas, the bindings, the ledger and the archive", async () => {
    const published = JSON.parse(
      execFileSync(
        process.execPath,
        ["--input-type=module", "-e", `const m = await import(${JSON.stringify(DIST)}); console.log(JSON.stringify(Object.keys(m)))`],
        { encoding: "utf8" },
      ),
    ) as string[];
    for (const name of WORKSPACE_EXPORTS) {
      expect(published, name).toContain(name);
      expect(lib, name).toHaveProperty(name);
    }
    expect([...lib.WORKSPACE_TOOL_NAMES].sort()).toEqual([
      "append_file",
      "apply_patch",
      "build_workspace",
      "create_directory",
      "directory_tree",
      "edit_file",
      "get_file_info",
      "list_allowed_directories",
      "list_directory",
      "list_directory_with_sizes",
      "list_files",
      "move_file",
      "read_file",
      "read_media_file",
      "read_multiple_files",
      "read_text_file",
      "run_command",
      "run_tests",
      "search_files",
      "search_text",
      "write_file",
    ]);
    // Only these take no argument at all.
    for (const name of lib.WORKSPACE_TOOL_NAMES)
      expect(lib.WORKSPACE_SCHEMAS[name].input.safeParse({}).success, name).toBe(
        ["list_files", "run_tests", "build_workspace", "list_allowed_directories"].includes(name),
      );
    const root = tempRepo({ "docs/a.md": "one\n", ".notarai/config.yaml": "workspace:\n  test: [git, status, --short]\n" });
    const ws = lib.openWorkspace(root, { now: () => new Date("2026-04-02T00:00:00Z") });
    expect((await lib.runWorkspaceTool(ws, "read_file", { path: "docs/a.md" })).body).toMatchObject({ success: true, contents: "one\n" });
    const edit = await lib.runWorkspaceTool(
      ws,
      "apply_patch",
      { path: "docs/a.md", hunks: [{ start_line: 1, end_line: 1, replacement: "two" }] },
      { via: "library" },
    );
    expect(edit.body).toMatchObject({ success: true, hunks_applied: 1, archived: { archive: "archive/2026/04/docs/a.md.tar.zst", member: "docs/a.md.~1~" } });
    expect((await lib.runWorkspaceTool(ws, "run_tests", {})).body).toMatchObject({ success: true, exit_code: 0 });
    const refused = await lib.recordRefusal(ws, "read_file", { code: "method_not_allowed", message: "GET: use POST", status: 405 }, { via: "http" });
    expect(refused).toMatchObject({ status: 405, failed: true, body: { success: false, code: "method_not_allowed" } });
    const report = lib.verifyLedger(readFileSync(join(root, "docs/evidence_ledger.tools.log")));
    // apply_patch and run_tests change things: an intent line before, an outcome line after.
    expect(report).toMatchObject({ ok: true, lines: 6, interrupted: [] });
    const archived = await lib.readArchived(ws, "docs/a.md");
    expect(Buffer.from(archived.data).toString()).toBe("one\n");
    const server = await lib.startWorkspaceHttp({ root, port: 0, token: "library-token-0123456789" });
    try {
      const res = await fetch(`${server.url}/list_files`, { method: "POST", headers: { authorization: "Bearer library-token-0123456789" }, body: "{}" });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { entries: Array<{ path: string }> }).entries.map((e) => e.path)).toContain("docs");
    } finally {
      await server.close();
    }
    await expect(lib.startWorkspaceHttp({ root, host: "0.0.0.0", port: 0, token: "library-token-0123456789" })).rejects.toThrow(/loopback only/);
    expect(lib.DEFAULT_HTTP_PORT).toBe(7878);
  });
});
