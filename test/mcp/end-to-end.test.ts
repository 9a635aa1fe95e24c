/**
 * End to end, the way a client meets the server: `init` in a fresh repository,
 * read the `.mcp.json` it wrote, spawn the server exactly as that entry says
 * (the package installed in the temp repository the way npm lays it out, as a
 * link to this one), then list and call every tool and reconcile, edit and
 * verify a document.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MCP_SERVER_ENTRY } from "../../src/internal.js";
import { installLocally } from "../helpers/local-install.js";
import { runCli } from "../helpers/run-cli.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { McpClient, expectProtocolOnly } from "./helpers/mcp-client.js";

describe("mcp: end to end through the .mcp.json init writes", () => {
  it("lists and calls every tool", async () => {
    const repo = tempRepo({
      "src/app.ts": "export const app = 1;\n",
      "README.md": "# App\n",
      "docs/plan.noma": '# Plan\n\n::claim{id="c1" confidence=0.5}\nThe app works.\n::\n\n::evidence{id="e1" for="c1"}\nIt ran.\n::\n',
      "tools/allowed_commands.toml": '[[command]]\nargv = ["git", "status", "--short"]\n',
      ".notarai/config.yaml": "workspace:\n  test: [git, status, --short]\n  build: [git, status, --short]\n",
    });
    const init = runCli(["init"], { cwd: repo });
    expect(init.code, init.stderr).toBe(0);
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-qm", "init"]);
    git(repo, ["checkout", "-q", "-b", "feature"]);
    writeFileSync(join(repo, "src/app.ts"), "export const app = 2;\n");

    const config = JSON.parse(readFileSync(join(repo, ".mcp.json"), "utf8")) as {
      mcpServers: Record<string, { type: string; command: string; args: string[] }>;
    };
    const entry = config.mcpServers["noma-reconcile"]!;
    expect(entry).toEqual({ ...MCP_SERVER_ENTRY, args: [...MCP_SERVER_ENTRY.args] });
    installLocally(repo);
    const c = new McpClient(repo, [entry.command, ...entry.args]);

    const hello = await c.initialize("2025-11-25");
    expect(hello.protocolVersion).toBe("2025-11-25");
    expect(hello.schemaNote).toBeUndefined();
    expect(hello.projectNote).toBeUndefined();
    const tools = ((await c.request("tools/list")).result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(tools).toHaveLength(33);

    const spec = ".notarai/system.spec.yaml";
    const called = new Set<string>();
    const call = async <T>(name: string, args: Record<string, unknown> = {}): Promise<T> => {
      called.add(name);
      return c.ok<T>(name, args);
    };

    const affected = await call<{ changed_files: string[]; affected_specs: Array<{ spec_path: string }> }>("list_affected_specs", { base_branch: "main" });
    expect(affected).toMatchObject({ changed_files: ["src/app.ts"], affected_specs: [{ spec_path: spec }] });
    const diff = await call<{ files: string[]; diff: string }>("get_spec_diff", { spec_path: spec, base_branch: "main" });
    expect(diff.files).toEqual(["src/app.ts"]);
    expect(diff.diff).toContain("+export const app = 2;");
    expect((await call<{ changed_artifacts: string[] }>("get_changed_artifacts", { spec_path: spec, artifact_type: "code" })).changed_artifacts).toEqual([
      "src/app.ts",
    ]);
    expect(await call("mark_reconciled", { files: ["src/app.ts"] })).toEqual({ updated: 1 });
    expect((await call<{ skipped: string[] }>("get_spec_diff", { spec_path: spec, base_branch: "main" })).skipped).toEqual(["src/app.ts"]);
    expect(await call("snapshot_state")).toMatchObject({ files: 1, state_path: join(repo, ".notarai/reconciliation_state.json") });
    expect(await call("clear_cache")).toEqual({ cleared: true });

    const doc = await call<{ sha256: string; blocks: Array<{ id?: string; hash?: string }> }>("read_doc", { file: "docs/plan.noma" });
    expect(await call("list_ids", { file: "docs/plan.noma" })).toEqual({ ids: ["plan", "c1", "e1"], aliases: {} });
    expect(await call("validate_doc", { file: "docs/plan.noma" })).toMatchObject({ ok: true });
    const hash = doc.blocks.find((b) => b.id === "c1")!.hash!;
    const patched = await call<{ ok: boolean; transcript_entry: { patch_result: string } }>("patch_block", {
      file: join(repo, "docs/plan.noma"),
      op: { op: "update_attribute", id: "c1", key: "confidence", value: 0.9, baseHash: hash },
      base_sha256: doc.sha256,
      actor: { kind: "agent", name: "e2e" },
    });
    expect(patched).toMatchObject({ ok: true, transcript_entry: { patch_result: "applied" } });
    // No run of the loop yet: an empty list; run_status says so (as an error the model can read).
    expect(await call("run_list")).toEqual({ runs: [], total: 0 });
    called.add("run_status");
    expect(await c.fails("run_status")).toContain("no runs yet");

    // The workspace tools (NOA), recorded in the evidence ledger.
    expect(await call("read_file", { path: "README.md" })).toMatchObject({ success: true, contents: "# App\n" });
    expect(await call("list_files", { path: "src" })).toMatchObject({ success: true, entries: [{ path: "src/app.ts", kind: "file" }] });
    expect(await call("edit_file", { path: "README.md", contents: "# App\n\nUsage.\n" })).toMatchObject({
      success: true,
      archived: { member: "README.md.~1~" },
    });
    expect(await call("apply_patch", { path: "README.md", hunks: [{ start_line: 3, end_line: 3, replacement: "How to use it." }] })).toMatchObject({
      success: true,
      hunks_applied: 1,
    });
    expect(await call("run_command", { command: "git", args: ["status", "--short"] })).toMatchObject({ success: true, exit_code: 0 });
    expect(await call("run_tests")).toMatchObject({ success: true });
    expect(await call("build_workspace")).toMatchObject({ success: true });
    // …and those named after the MCP filesystem server's, with append_file and search_text.
    expect(await call("read_text_file", { path: "README.md", head: 1 })).toMatchObject({ content: "# App\n", total_lines: 3 });
    expect(await call("read_media_file", { path: "README.md" })).toMatchObject({ mime_type: "text/markdown", content: [{ type: "resource" }] });
    expect(await call("read_multiple_files", { paths: ["README.md", "nope.md"] })).toMatchObject({
      failed: 1,
      files: [{ success: true }, { code: "not_found" }],
    });
    expect(await call("list_directory", { path: "src" })).toMatchObject({ content: "[FILE] app.ts" });
    expect(await call("list_directory_with_sizes", { path: "src" })).toMatchObject({ files: 1, directories: 0 });
    expect(await call("directory_tree", { path: "src" })).toMatchObject({ tree: [{ name: "app.ts", type: "file" }] });
    expect(await call("search_files", { path: ".", pattern: "src/*.ts" })).toMatchObject({ matches: ["src/app.ts"] });
    expect(await call("search_text", { pattern: "app = 2", literal: true })).toMatchObject({ matches: [{ path: "src/app.ts", line: 1 }] });
    expect(await call("get_file_info", { path: "src/app.ts" })).toMatchObject({ isFile: true, kind: "file" });
    expect(await call("list_allowed_directories")).toMatchObject({ directories: [repo] });
    expect(await call("create_directory", { path: "notes" })).toMatchObject({ created: ["notes"] });
    expect(await call("write_file", { path: "notes/a.md", content: "a\n" })).toMatchObject({ created: true });
    expect(await call("append_file", { path: "notes/a.md", content: "b\n" })).toMatchObject({ size: 4 });
    expect(await call("move_file", { source: "notes/a.md", destination: "notes/b.md" })).toMatchObject({ destination: "notes/b.md" });
    expect(runCli(["ledger", "verify"], { cwd: repo }).code).toBe(0);

    expect([...called].sort()).toEqual([...tools].sort());
    const closed = await c.close();
    expect(closed.code).toBe(0);
    expectProtocolOnly(closed.lines);

    // The transcript the server wrote verifies with the CLI.
    const v = runCli(["transcript", "verify", "docs/plan.noma"], { cwd: repo });
    expect(v.code, v.stdout + v.stderr).toBe(0);
  });
});
