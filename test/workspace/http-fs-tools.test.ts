/**
 * The new workspace tools over HTTP (`serve --http`, the real binary), as over MCP: every
 * one is an endpoint, behind the bearer token (401 and unrecorded without it), answering
 * the same body the MCP binding gives as structuredContent; what they change is recorded
 * with an intent line before and an outcome line after (`via: "http"`). Containment over
 * HTTP: escape-matrix.test.ts; read-only: read-only.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runWorkspaceTool } from "../../src/workspace/run-workspace-tool.js";
import { openWorkspace } from "../../src/workspace/workspace.js";
import { WORKSPACE_TOOL_NAMES, type WorkspaceToolName } from "../../src/workspace/workspace-tool-names.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { HttpServer } from "./helpers/http-server.js";

/** One request per new tool, in an order that works on the fixture. */
const CALLS: Array<[WorkspaceToolName, Record<string, unknown>, Record<string, unknown>]> = [
  ["read_text_file", { path: "w/a.txt", tail: 1 }, { content: "two\n", total_lines: 2 }],
  ["read_media_file", { path: "w/a.txt" }, { mime_type: "text/plain", content: [{ type: "resource" }] }],
  ["read_multiple_files", { paths: ["w/a.txt", "missing"] }, { failed: 1 }],
  ["list_directory", { path: "w" }, { content: "[FILE] a.txt", entries: [{ name: "a.txt", kind: "file", size: 0 }] }],
  ["list_directory_with_sizes", { path: "w" }, { files: 1, directories: 0, total_size: 8 }],
  ["directory_tree", { path: "w", maxDepth: 1 }, { tree: [{ name: "a.txt", type: "file" }] }],
  ["search_files", { path: "w", pattern: "*.txt" }, { matches: ["w/a.txt"] }],
  ["search_text", { pattern: "tw.", path: "w" }, { matches: [{ path: "w/a.txt", line: 2, column: 1, text: "two" }] }],
  ["get_file_info", { path: "w/a.txt" }, { kind: "file", size: 8 }],
  ["list_allowed_directories", {}, { read_only: false }],
  ["write_file", { path: "w/b.txt", content: "bee\n" }, { created: true }],
  ["append_file", { path: "w/b.txt", content: "more\n" }, { size: 9 }],
  ["create_directory", { path: "w/d/e" }, { created: ["w/d", "w/d/e"] }],
  ["move_file", { source: "w/b.txt", destination: "w/d/e/b.txt" }, { kind: "file" }],
  ["edit_file", { path: "w/a.txt", edits: [{ oldText: "two", newText: "2" }] }, { dry_run: false, edits: [{ match: "exact", line: 2 }] }],
];

describe("serve --http: the new tools", () => {
  it("serves every workspace tool behind the token, with the MCP binding's bodies, and records intents and outcomes", async () => {
    const root = tempRepo({ "w/a.txt": "one\ntwo\n" });
    // Same requests through the library first, on a copy: the HTTP bodies must equal these.
    const copy = tempRepo({ "w/a.txt": "one\ntwo\n" });
    const s = await new HttpServer(root).ready();
    // Every endpoint wants the token, and tells nothing without it.
    for (const tool of WORKSPACE_TOOL_NAMES) expect((await s.post(tool, {}, { token: null })).status, tool).toBe(401);
    const ws = openWorkspace(copy);
    for (const [tool, args, shape] of CALLS) {
      const r = await s.post(tool, args);
      expect(r.status, `${tool}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body, tool).toMatchObject({ success: true, ...shape });
      const lib = await runWorkspaceTool(ws, tool, args);
      const strip = (b: Record<string, unknown>) => JSON.parse(JSON.stringify(b).replaceAll(copy, "<root>").replaceAll(root, "<root>")) as unknown;
      if (tool !== "get_file_info") expect(strip(r.body), tool).toEqual(strip(lib.body));
    }
    expect((await s.stop()).code).toBe(0);
    const lines = readFileSync(join(root, "docs/evidence_ledger.tools.log"), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { action: string; details: Record<string, unknown> });
    // Unauthenticated requests left no line; each read one line, each change an intent and an outcome.
    expect(lines.map((l) => `${l.action}${l.details["phase"] === undefined ? "" : `:${l.details["phase"]}`}`)).toEqual(
      CALLS.flatMap(([tool]) =>
        ["write_file", "append_file", "create_directory", "move_file", "edit_file"].includes(tool) ? [`${tool}:intent`, `${tool}:outcome`] : [tool],
      ),
    );
    expect(lines.every((l) => l.details["via"] === "http")).toBe(true);
    expect(readFileSync(join(root, "w/d/e/b.txt"), "utf8")).toBe("bee\nmore\n");
    expect(readFileSync(join(root, "w/a.txt"), "utf8")).toBe("one\n2\n");
  });
});
