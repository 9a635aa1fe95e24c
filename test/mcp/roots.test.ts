/**
 * MCP Roots, with the real server: a client that says it has roots (`capabilities.roots`)
 * is asked for them (`roots/list`) once initialized, and again on
 * `notifications/roots/list_changed`; the workspace is then their intersection with the
 * repository — for every workspace tool, reading or writing, listing or searching. A
 * root around the repository gives all of it, one elsewhere nothing; a link from inside
 * a root to elsewhere in the repository is outside. A client without roots is never
 * asked, and gets the whole repository.
 */
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { verifyLedger } from "../../src/workspace/verify-ledger.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";
import { expectProtocolOnly, McpClient } from "./helpers/mcp-client.js";

const file = (p: string): { uri: string; name: string } => ({ uri: pathToFileURL(p).href, name: p });

function repo(): string {
  const root = tempRepo({ "src/a.ts": "export const a = 'needle';\n", "docs/b.md": "needle in docs\n", "top.txt": "needle at the top\n" });
  symlinkSync(join(root, "docs/b.md"), join(root, "src/link-to-docs.md"));
  return root;
}

/** A client with these roots; `roots` can be changed (then notify list_changed). */
async function client(root: string, roots: { current: Array<{ uri: string; name: string }> }): Promise<McpClient> {
  const c = new McpClient(root);
  c.onRequest = (method) => (method === "roots/list" ? { roots: roots.current } : {});
  await c.initialize("2025-06-18", { roots: { listChanged: true } });
  return c;
}

const codeOf = async (c: McpClient, tool: string, args: Record<string, unknown>): Promise<string | null> => {
  const r = await c.call(tool, args);
  return r.isError === true ? (JSON.parse(r.content[0]!.text) as { code: string }).code : null;
};

/** Every workspace tool that takes a path, on `path` (a file) or its directory. */
function everyTool(path: string): Array<[string, Record<string, unknown>]> {
  const dir = dirname(path);
  return [
    ["read_file", { path }],
    ["read_text_file", { path }],
    ["read_media_file", { path }],
    ["get_file_info", { path }],
    ["list_files", { path: dir }],
    ["list_directory", { path: dir }],
    ["list_directory_with_sizes", { path: dir }],
    ["directory_tree", { path: dir }],
    ["search_files", { path: dir, pattern: "**" }],
    ["search_text", { path: dir, pattern: "needle" }],
    ["edit_file", { path, edits: [{ oldText: "needle", newText: "pin" }], dryRun: true }],
    ["edit_file", { path: `${dir}/new-by-edit.txt`, contents: "x\n", create_if_missing: true }],
    ["apply_patch", { path, hunks: [{ start_line: 1, end_line: 1, replacement: "patched" }] }],
    ["write_file", { path: `${dir}/new-by-write.txt`, content: "x\n" }],
    ["append_file", { path, content: "more\n" }],
    ["create_directory", { path: `${dir}/made` }],
    ["move_file", { source: path, destination: `${dir}/moved.txt` }],
  ];
}

describe("mcp: roots", () => {
  it("asks a client with roots for them once initialized; the workspace is their part of the repository, for every tool", async () => {
    const root = repo();
    const c = await client(root, { current: [file(join(root, "src"))] });
    expect(await c.ok("list_allowed_directories")).toMatchObject({ directories: [join(root, "src")], roots: [join(root, "src")] });
    expect(c.serverRequests.map((r) => r.method)).toEqual(["roots/list"]);
    // Outside the roots (docs/, the root's own files): refused by every tool, nothing changed.
    for (const [tool, args] of [...everyTool("docs/b.md"), ...everyTool("top.txt")])
      expect(await codeOf(c, tool, args), `${tool} ${JSON.stringify(args)}`).toBe("outside_workspace");
    expect(await codeOf(c, "read_multiple_files", { paths: ["docs/b.md"] })).toBeNull();
    expect(((await c.ok("read_multiple_files", { paths: ["docs/b.md", "src/a.ts"] })) as { files: Array<{ code?: string }> }).files[0]!.code).toBe(
      "outside_workspace",
    );
    expect(await codeOf(c, "move_file", { source: "src/a.ts", destination: "docs/a.ts" })).toBe("outside_workspace");
    // A link inside the root that leads elsewhere in the repository is outside too.
    expect(await codeOf(c, "read_text_file", { path: "src/link-to-docs.md" })).toBe("outside_workspace");
    // Inside: every tool works.
    for (const [tool, args] of everyTool("src/a.ts")) expect(await codeOf(c, tool, args), `${tool} ${JSON.stringify(args)}`).toBeNull();
    expect(((await c.ok("search_text", { path: "src", pattern: "made|moved|new-by", max_matches: 5 })) as { matches: unknown[] }).matches).toEqual([]);
    expect(readFileSync(join(root, "docs/b.md"), "utf8")).toBe("needle in docs\n");
    expect(readFileSync(join(root, "top.txt"), "utf8")).toBe("needle at the top\n");
    const closed = await c.close();
    expectProtocolOnly(closed.lines);
    const v = verifyLedger(readFileSync(join(root, "docs/evidence_ledger.tools.log")));
    expect(v).toMatchObject({ ok: true, interrupted: [] });
  });

  it("asks again on roots/list_changed, and the calls after it use the new roots", async () => {
    const root = repo();
    const roots = { current: [file(join(root, "src"))] };
    const c = await client(root, roots);
    expect(await codeOf(c, "read_text_file", { path: "src/a.ts" })).toBeNull();
    expect(await codeOf(c, "read_text_file", { path: "docs/b.md" })).toBe("outside_workspace");
    roots.current = [file(join(root, "docs"))];
    c.notify("notifications/roots/list_changed");
    expect(await codeOf(c, "read_text_file", { path: "docs/b.md" })).toBeNull();
    expect(await codeOf(c, "read_text_file", { path: "src/a.ts" })).toBe("outside_workspace");
    expect(c.serverRequests.map((r) => r.method)).toEqual(["roots/list", "roots/list"]);
    // Two roots: both parts.
    roots.current = [file(join(root, "docs")), file(join(root, "src"))];
    c.notify("notifications/roots/list_changed");
    expect(await c.ok("list_allowed_directories")).toMatchObject({ directories: [join(root, "docs"), join(root, "src")] });
    await c.close();
  });

  it("a root around the repository gives all of it; roots elsewhere give nothing; no roots at all, the whole repository", async () => {
    const root = repo();
    const around = await client(root, { current: [file(dirname(root))] });
    expect(await around.ok("list_allowed_directories")).toMatchObject({ directories: [root] });
    expect(await codeOf(around, "read_text_file", { path: "top.txt" })).toBeNull();
    await around.close();
    const elsewhere = tempDir("nr-roots-elsewhere-");
    mkdirSync(join(elsewhere, "x"));
    const none = await client(root, { current: [file(elsewhere), { uri: "https://example.invalid/repo", name: "web" }] });
    const listed = await none.ok<{ directories: string[]; content: string }>("list_allowed_directories");
    expect(listed.directories).toEqual([]);
    expect(listed.content).toContain("none of them is in the repository");
    for (const [tool, args] of everyTool("src/a.ts")) expect(await codeOf(none, tool, args), `${tool}`).toBe("outside_workspace");
    await none.close();
    // A client that gave an empty list: no narrowing.
    const empty = await client(root, { current: [] });
    expect(await empty.ok("list_allowed_directories")).toMatchObject({ directories: [root] });
    await empty.close();
    // A client without the capability is never asked.
    const plain = new McpClient(root);
    await plain.initialize();
    expect(await plain.ok("list_allowed_directories")).toEqual({
      success: true,
      content: `Allowed directories:\n${root}`,
      directories: [root],
      read_only: false,
    });
    expect(plain.serverRequests).toEqual([]);
    await plain.close();
  });
});
