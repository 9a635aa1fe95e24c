/**
 * `file` and `path` over the real MCP server on stdio: the Noma tools (canonical `file`)
 * take `path`, the file-level workspace tools (canonical `path`) take `file`; both given
 * and different is a clear error; tools/list says which name is canonical.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "./helpers/mcp-client.js";

const DOC = '# Plan {id="plan"}\n\n::claim{id="c1" confidence=0.5}\nGrows.\n::\n';

describe("mcp: path for file, file for path", () => {
  it("read_doc, list_ids, validate_doc and patch_block accept path; the result is the one file gives", async () => {
    const repo = tempRepo({ "docs/plan.noma": DOC });
    const c = new McpClient(repo);
    for (const tool of ["read_doc", "list_ids", "validate_doc"]) {
      expect(await c.ok(tool, { path: "docs/plan.noma" }), tool).toEqual(await c.ok(tool, { file: "docs/plan.noma" }));
      // Both, the same value: taken once.
      expect(await c.ok(tool, { file: "docs/plan.noma", path: "docs/plan.noma" }), tool).toEqual(await c.ok(tool, { file: "docs/plan.noma" }));
    }
    const patched = await c.ok<{ ok: boolean }>("patch_block", {
      path: "docs/plan.noma",
      op: { op: "update_attribute", id: "c1", key: "confidence", value: 0.7 },
    });
    expect(patched.ok).toBe(true);
    expect(readFileSync(join(repo, "docs/plan.noma"), "utf8")).toContain("confidence=0.7");
    // The alias is contained like the canonical name.
    expect(await c.fails("read_doc", { path: "../outside.noma" })).toContain("outside the repository");
    await c.close();
  });

  it("file and path both given and different: an error naming both and the canonical one", async () => {
    const repo = tempRepo({ "a.noma": DOC, "b.noma": DOC, "notes.md": "x\n" });
    const c = new McpClient(repo);
    const m = await c.fails("read_doc", { file: "a.noma", path: "b.noma" });
    expect(m).toContain("invalid arguments for read_doc");
    expect(m).toContain('"file" and "path" name the same argument (file is canonical');
    const w = JSON.parse(await c.fails("read_file", { path: "notes.md", file: "a.noma" })) as { success: boolean; code: string; message: string };
    expect(w).toMatchObject({ success: false, code: "invalid_arguments" });
    expect(w.message).toContain("path is canonical");
    await c.close();
  });

  it("read_file and edit_file accept file; an unrelated unknown argument is still refused", async () => {
    const repo = tempRepo({ "notes.md": "x\n" });
    const c = new McpClient(repo);
    expect(await c.ok("read_file", { file: "notes.md" })).toMatchObject({ success: true, path: "notes.md", contents: "x\n" });
    expect(await c.ok("edit_file", { file: "notes.md", contents: "y\n" })).toMatchObject({ success: true, path: "notes.md" });
    expect(readFileSync(join(repo, "notes.md"), "utf8")).toBe("y\n");
    expect(await c.fails("read_doc", { file: "notes.md", name: "x" })).toContain('unknown argument "name"');
    await c.close();
  });

  it("tools/list: the canonical argument's description names the alias", async () => {
    const c = new McpClient(tempRepo({}));
    const r = await c.request("tools/list", {});
    const tools = (r.result as { tools: Array<{ name: string; inputSchema: { properties: Record<string, { description?: string }>; required?: string[] } }> })
      .tools;
    const byName = new Map(tools.map((t) => [t.name, t.inputSchema]));
    for (const tool of ["read_doc", "list_ids", "validate_doc", "patch_block"]) {
      expect(byName.get(tool)!.properties["file"]!.description, tool).toContain('"file" is the canonical name; "path" is accepted for it');
      expect(byName.get(tool)!.required, tool).toContain("file");
    }
    for (const tool of ["read_file", "edit_file", "apply_patch"])
      expect(byName.get(tool)!.properties["path"]!.description, tool).toContain('"path" is the canonical name; "file" is accepted for it');
    await c.close();
  });
});
