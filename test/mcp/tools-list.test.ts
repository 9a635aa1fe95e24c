/**
 * `tools/list`: every tool with title, description, a closed-object input
 * schema and an output schema generated from its zod schemas (the build
 * generates them; they must equal a fresh generation from source), the
 * annotations, in a fixed order.
 */
import { describe, expect, it } from "vitest";
import { toolJsonSchemas } from "../../src/mcp/generate-tool-json-schemas.js";
import { TOOL_CATALOG } from "../../src/mcp/tool-catalog.js";
import { isWorkspaceWriteTool, WORKSPACE_TOOL_NAMES } from "../../src/workspace/workspace-tool-names.js";
import { tempDir } from "../helpers/temp-repo.js";
import { McpClient } from "./helpers/mcp-client.js";

interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: Record<string, unknown>;
}

async function listTools(): Promise<Tool[]> {
  const c = new McpClient(tempDir());
  const r = await c.request("tools/list", {});
  await c.close();
  return (r.result as { tools: Tool[] }).tools;
}

describe("mcp: tools/list", () => {
  it("describes every tool completely, with closed input objects", async () => {
    const tools = await listTools();
    expect(tools).toHaveLength(33);
    for (const t of tools) {
      // read_doc answers with its JSON as text only (Annex B.3), so it declares no outputSchema (MCP: a tool that declares one must return structuredContent).
      if (t.name === "read_doc") expect(Object.keys(t)).toEqual(["name", "title", "description", "inputSchema", "annotations"]);
      else expect(Object.keys(t)).toEqual(["name", "title", "description", "inputSchema", "outputSchema", "annotations"]);
      expect(t.title.length).toBeGreaterThan(3);
      expect(t.description.length).toBeGreaterThan(40);
      expect(t.inputSchema["type"]).toBe("object");
      expect(t.inputSchema["additionalProperties"]).toBe(false);
      expect(t.inputSchema["$schema"]).toBeUndefined();
      if (t.name !== "read_doc") expect(t.outputSchema["type"]).toBe("object");
      for (const k of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]) expect(typeof t.annotations[k], `${t.name}.${k}`).toBe("boolean");
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("get_spec_diff")!.inputSchema["required"]).toEqual(["spec_path", "base_branch"]);
    expect(byName.get("list_affected_specs")!.inputSchema["required"]).toEqual(["base_branch"]);
    expect(byName.get("mark_reconciled")!.inputSchema["required"]).toEqual(["files"]);
    expect(byName.get("read_doc")!.inputSchema["required"]).toEqual(["file"]);
    expect(Object.keys(byName.get("read_doc")!.inputSchema["properties"] as object)).toEqual(["file", "view", "ids", "max_bytes", "cursor"]);
    expect(byName.get("clear_cache")!.inputSchema["properties"]).toEqual({});
    expect(byName.get("get_spec_diff")!.outputSchema["required"]).toEqual([
      "diff",
      "files",
      "skipped",
      "excluded",
      "spec_changes",
      "system_spec",
      "binary_changes",
      "file_categories",
    ]);
    // patch_block advertises the op catalog once, by reference.
    const patch = byName.get("patch_block")!.inputSchema as {
      properties: Record<string, unknown>;
      $defs: Record<string, { anyOf: Array<{ properties: { op: { const: string } } }> }>;
    };
    // …typed, for clients that read only `type` (they send an untyped argument as a JSON string).
    expect(patch.properties["op"]).toEqual({ type: "object", $ref: "#/$defs/PatchOp" });
    expect(patch.$defs["PatchOp"]!.anyOf.map((o) => o.properties.op.const)).toContain("move_block");
    expect(patch.$defs["PatchOp"]!.anyOf).toHaveLength(25);
    // Read-only tools say so; the destructive ones too.
    for (const n of ["list_affected_specs", "get_spec_diff", "get_changed_artifacts", "read_doc", "list_ids", "validate_doc", "run_list", "run_status"])
      expect(byName.get(n)!.annotations["readOnlyHint"]).toBe(true);
    for (const n of ["clear_cache", "patch_block"]) expect(byName.get(n)!.annotations["destructiveHint"]).toBe(true);
    // The workspace tools: those that only read say so; none reaches past the repository but the three that run a command.
    for (const n of WORKSPACE_TOOL_NAMES) {
      const a = byName.get(n)!.annotations;
      expect(a["readOnlyHint"], n).toBe(!isWorkspaceWriteTool(n));
      expect(a["openWorldHint"], n).toBe(["run_command", "run_tests", "build_workspace"].includes(n));
      if (a["readOnlyHint"] === true) expect([a["destructiveHint"], a["idempotentHint"]], n).toEqual([false, true]);
    }
    expect(["write_file", "edit_file", "apply_patch", "move_file"].map((n) => byName.get(n)!.annotations["destructiveHint"])).toEqual([true, true, true, true]);
    expect(["append_file", "create_directory"].map((n) => byName.get(n)!.annotations["destructiveHint"])).toEqual([false, false]);
  });

  it("serves exactly the JSON Schemas generated from the zod schemas, in the catalog's order, identically every time", async () => {
    const first = await listTools();
    const second = await listTools();
    expect(second).toEqual(first);
    expect(first.map((t) => t.name)).toEqual(TOOL_CATALOG.map((t) => t.name));
    const generated = toolJsonSchemas();
    for (const t of first) {
      expect(t.inputSchema, t.name).toEqual(generated[t.name as keyof typeof generated].inputSchema);
      if (t.name !== "read_doc") expect(t.outputSchema, t.name).toEqual(generated[t.name as keyof typeof generated].outputSchema);
    }
  });
});
