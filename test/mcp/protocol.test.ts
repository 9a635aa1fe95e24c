/**
 * The MCP stdio server as a process: JSON-RPC framing and errors, the
 * handshake in every protocol version, ping, discovery, notifications,
 * garbage, and the schemaNote/projectNote hints. Every line the server writes
 * on stdout must be a JSON-RPC message.
 */
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";
import { initInProcess } from "../support-setup/init-in-process.js";
import { expectProtocolOnly, McpClient } from "./helpers/mcp-client.js";

const VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const TOOLS = [
  "list_affected_specs",
  "get_spec_diff",
  "get_changed_artifacts",
  "mark_reconciled",
  "clear_cache",
  "snapshot_state",
  "read_doc",
  "list_ids",
  "validate_doc",
  "patch_block",
  "read_file",
  "list_files",
  "edit_file",
  "apply_patch",
  "run_command",
  "run_tests",
  "build_workspace",
  "read_text_file",
  "read_media_file",
  "read_multiple_files",
  "list_directory",
  "list_directory_with_sizes",
  "directory_tree",
  "search_files",
  "search_text",
  "get_file_info",
  "list_allowed_directories",
  "write_file",
  "append_file",
  "create_directory",
  "move_file",
  "run_list",
  "run_status",
];

describe("mcp: handshake", () => {
  for (const version of VERSIONS) {
    it(`initialize echoes ${version}, then ping and tools/list work`, async () => {
      const repo = tempRepo({ "a.txt": "a\n" });
      const c = new McpClient(repo);
      const init = await c.initialize(version);
      expect(init.protocolVersion).toBe(version);
      expect(init.capabilities).toEqual({ tools: { listChanged: false } });
      expect(init.serverInfo).toMatchObject({ name: "noma-reconcile", version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
      expect(typeof init.instructions).toBe("string");
      expect(init.schemaNote).toBeUndefined(); // no .notarai/: no hints
      expect(init.projectNote).toBeUndefined();
      expect((await c.request("ping")).result).toEqual({});
      const list = (await c.request("tools/list")).result as { tools: Array<{ name: string }> };
      expect(list.tools.map((t) => t.name)).toEqual(TOOLS);
      const closed = await c.close();
      expect(closed.code).toBe(0);
      expectProtocolOnly(closed.lines);
      expect(closed.lines.length).toBe(3);
    });
  }

  it("answers the newest version to an unknown one", async () => {
    const c = new McpClient(tempDir());
    expect((await c.initialize("2099-01-01")).protocolVersion).toBe("2025-11-25");
    expect((await c.initialize("1.0")).protocolVersion).toBe("2025-11-25");
    expectProtocolOnly((await c.close()).lines);
  });

  it("initialize without a protocolVersion is -32602", async () => {
    const c = new McpClient(tempDir());
    expect((await c.request("initialize", {})).error?.code).toBe(-32602);
    expect((await c.request("initialize")).error?.code).toBe(-32602);
    expectProtocolOnly((await c.close()).lines);
  });

  it("answers server/discover with the versions, capabilities and identity", async () => {
    const c = new McpClient(tempDir());
    const r = await c.request("server/discover", { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } });
    expect(r.result).toMatchObject({
      resultType: "complete",
      supportedVersions: VERSIONS,
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: "noma-reconcile" },
    });
    await c.close();
  });

  it("works without initialize (stateless), in any order", async () => {
    const c = new McpClient(tempRepo({ "d.noma": '::claim{id="c1"}\nText.\n::\n' }));
    const r = await c.ok("list_ids", { file: "d.noma" });
    expect(r).toEqual({ ids: ["c1"], aliases: {} });
    expect((await c.request("ping")).result).toEqual({});
    expect((await c.close()).code).toBe(0);
  });
});

describe("mcp: JSON-RPC", () => {
  it("accepts id 0, string ids and negative/float ids, echoing them", async () => {
    const c = new McpClient(tempDir());
    expect(await c.request("ping", undefined, 0)).toEqual({ jsonrpc: "2.0", id: 0, result: {} });
    expect(await c.request("ping", undefined, "abc-1")).toEqual({ jsonrpc: "2.0", id: "abc-1", result: {} });
    expect(await c.request("ping", undefined, "")).toEqual({ jsonrpc: "2.0", id: "", result: {} });
    expect(await c.request("ping", undefined, -7)).toEqual({ jsonrpc: "2.0", id: -7, result: {} });
    expectProtocolOnly((await c.close()).lines);
  });

  it("ignores notifications (known or not) and client responses: no output for them", async () => {
    const c = new McpClient(tempDir());
    c.notify("notifications/initialized");
    c.notify("notifications/cancelled", { requestId: 3, reason: "x" });
    c.notify("no/such/notification");
    c.write(`${JSON.stringify({ jsonrpc: "2.0", id: 99, result: {} })}\n`);
    c.write(`${JSON.stringify({ jsonrpc: "2.0", id: 98, error: { code: -1, message: "x" } })}\n`);
    await c.request("ping", undefined, "after");
    const closed = await c.close();
    expect(closed.lines).toEqual(['{"jsonrpc":"2.0","id":"after","result":{}}']);
  });

  it("garbage is -32700 with id null, and the server keeps going", async () => {
    const c = new McpClient(tempDir());
    const errors = c.waitFor(null);
    c.write("this is not json\n");
    expect((await errors).error?.code).toBe(-32700);
    for (const junk of ['{"jsonrpc":"2.0","id":1,', "\u0000\u0001\u0002", "{'single':'quotes'}", "[1,2", "}"]) {
      const e = c.waitFor(null);
      c.write(`${junk}\n`);
      expect((await e).error?.code).toBe(-32700);
    }
    expect((await c.request("ping")).result).toEqual({});
    const closed = await c.close();
    expect(closed.code).toBe(0);
    expectProtocolOnly(closed.lines);
  });

  it("invalid requests are -32600", async () => {
    const c = new McpClient(tempDir());
    const cases: Array<[string, string | number | null]> = [
      ["42", null],
      ['"ping"', null],
      ["null", null],
      ['{"id":5,"method":"ping"}', 5], // no jsonrpc
      ['{"jsonrpc":"1.0","id":6,"method":"ping"}', 6],
      ['{"jsonrpc":"2.0","id":7}', 7], // no method
      ['{"jsonrpc":"2.0","id":8,"method":42}', 8],
      ['{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}', null],
      ['{"jsonrpc":"2.0","id":null,"method":"ping"}', null],
      ['{"jsonrpc":"2.0","id":true,"method":"ping"}', null],
      ['{"jsonrpc":"2.0","id":9,"method":"ping","params":"x"}', 9],
      ["[]", null],
    ];
    for (const [line, id] of cases) {
      const reply = c.waitFor(id);
      c.write(`${line}\n`);
      const r = await reply;
      expect(r.error?.code, line).toBe(-32600);
    }
    expectProtocolOnly((await c.close()).lines);
  });

  it("unknown methods are -32601 (resources/prompts are not offered)", async () => {
    const c = new McpClient(tempDir());
    for (const m of ["no/such/method", "resources/list", "prompts/list", "logging/setLevel"]) {
      const r = await c.request(m, {});
      expect(r.error?.code).toBe(-32601);
      expect(r.error?.message).toContain(m);
    }
    await c.close();
  });

  it("bad tools/call params are -32602 (no name, unknown tool, arguments not an object)", async () => {
    const c = new McpClient(tempDir());
    expect((await c.request("tools/call", {})).error?.code).toBe(-32602);
    expect((await c.request("tools/call")).error?.code).toBe(-32602);
    expect((await c.request("tools/call", { name: 7 })).error?.code).toBe(-32602);
    const unknown = await c.request("tools/call", { name: "rm_rf", arguments: {} });
    expect(unknown.error?.code).toBe(-32602);
    expect(unknown.error?.message).toContain("rm_rf");
    expect((await c.request("tools/call", { name: "read_doc", arguments: ["a"] })).error?.code).toBe(-32602);
    expect((await c.request("tools/call", { name: "read_doc", arguments: "file" })).error?.code).toBe(-32602);
    expectProtocolOnly((await c.close()).lines);
  });

  it("bad tool arguments are isError results naming the problem", async () => {
    const c = new McpClient(tempRepo({ "a.txt": "a\n" }));
    expect(await c.fails("read_doc", {})).toMatch(/invalid arguments for read_doc: file/);
    expect(await c.fails("read_doc", { file: 3 })).toMatch(/file/);
    expect(await c.fails("read_doc", { file: "a.noma", extra: true })).toMatch(/unknown argument "extra"/);
    expect(await c.fails("list_affected_specs", {})).toMatch(/base_branch/);
    expect(await c.fails("get_spec_diff", { spec_path: ".notarai/x.spec.yaml", base_branch: "main", bypass_cache: "yes" })).toMatch(/bypass_cache/);
    expect(await c.fails("clear_cache", { force: true })).toMatch(/unknown argument "force"/);
    expect(await c.fails("mark_reconciled", { files: "a.txt" })).toMatch(/files/);
    expect(await c.fails("patch_block", { file: "d.noma", op: { op: "delete_block", id: "x" }, actor: { kind: "robot", name: "r" } })).toMatch(/actor\.kind/);
    expect(await c.fails("patch_block", { file: "d.noma", op: { op: "delete_block", id: "x" }, expected_sha: "zz" })).toMatch(/expected_sha/);
    await c.close();
  });

  it("answers a batch with an array (notifications left out)", async () => {
    const c = new McpClient(tempDir());
    c.write(
      `${JSON.stringify([{ jsonrpc: "2.0", id: "b1", method: "ping" }, { jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", id: "b2", method: "nope" }, 5])}\n`,
    );
    const closed = await c.close();
    expect(closed.lines.length).toBe(1);
    const batch = JSON.parse(closed.lines[0]!) as Array<{ id: unknown; result?: unknown; error?: { code: number } }>;
    expect(batch.map((m) => m.id)).toEqual(["b1", "b2", null]);
    expect(batch[0]!.result).toEqual({});
    expect(batch[1]!.error?.code).toBe(-32601);
    expect(batch[2]!.error?.code).toBe(-32600);
    expectProtocolOnly(closed.lines);
  });
});

describe("mcp: stdio framing", () => {
  it("reassembles messages split across writes, byte by byte (inside UTF-8 characters too)", async () => {
    const c = new McpClient(tempDir());
    const msg = Buffer.from(`${JSON.stringify({ jsonrpc: "2.0", id: "ü€😀", method: "ping" })}\n`, "utf8");
    const reply = c.waitFor("ü€😀");
    for (let i = 0; i < msg.length; i++) c.write(msg.subarray(i, i + 1));
    expect((await reply).result).toEqual({});
    expectProtocolOnly((await c.close()).lines);
  });

  it("handles several messages in one chunk, CRLF line ends, blank lines, and a last line without newline at EOF", async () => {
    const c = new McpClient(tempDir());
    const ping = (id: number): string => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });
    c.write(`${ping(1)}\r\n${ping(2)}\n\n   \r\n${ping(3)}\r\n${ping(4)}`); // no final newline
    const closed = await c.close();
    expect(closed.code).toBe(0);
    expect(closed.lines.map((l) => (JSON.parse(l) as { id: number }).id)).toEqual([1, 2, 3, 4]);
    expectProtocolOnly(closed.lines);
  });

  it("exits 0 when stdin closes, answering everything first; logs nothing on stdout", async () => {
    const repo = tempRepo({ "d.noma": '::claim{id="c1"}\nText.\n::\n' });
    const c = new McpClient(repo);
    const lines: string[] = [];
    for (let i = 0; i < 20; i++)
      lines.push(JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "read_doc", arguments: { file: "d.noma" } } }));
    c.write(`${lines.join("\n")}\n`);
    const closed = await c.close();
    expect(closed.code).toBe(0);
    expect(closed.lines.length).toBe(20);
    expect(closed.lines.map((l) => (JSON.parse(l) as { id: number }).id)).toEqual([...Array(20).keys()]);
    expectProtocolOnly(closed.lines);
  });

  it("escapes U+2028/U+2029 so no response contains a Unicode line break", async () => {
    const repo = tempRepo({ "d.noma": '::claim{id="c1" note="a\u2028b\u2029c"}\nText.\n::\n' });
    const c = new McpClient(repo);
    const r = await c.ok<{ blocks: Array<{ attrs?: Record<string, unknown> }> }>("read_doc", { file: "d.noma" });
    expect(r.blocks[0]!.attrs!["note"]).toBe("a\u2028b\u2029c");
    const closed = await c.close();
    expect(closed.stdout).not.toMatch(/[\u2028\u2029]/);
  });
});

describe("mcp: schemaNote / projectNote", () => {
  /** A repository after `init` (exit 0): its files written in process (set-up; init is tested as a process in test/init). */
  async function initialized(): Promise<string> {
    const repo = tempRepo({ "a.txt": "a\n" });
    expect((await initInProcess(repo)).files.map((f) => `${f.action} ${f.path}`)).toEqual([
      "create .notarai/README.md",
      "create .notarai/notarai.spec.json",
      "create .notarai/system.spec.yaml",
      "create .notarai/noma-reconcile.cjs",
      "create .gitignore",
      "create .mcp.json",
    ]);
    return repo;
  }

  it("none right after init", async () => {
    const c = new McpClient(await initialized());
    const r = await c.initialize();
    expect(r.schemaNote).toBeUndefined();
    expect(r.projectNote).toBeUndefined();
    await c.close();
  });

  it("both when the project's copies were written by an older version, naming both versions", async () => {
    const repo = await initialized();
    const readme = join(repo, ".notarai/README.md");
    writeFileSync(readme, "# noma-reconcile -- 0.0.1\n\nold\n");
    const schemaPath = join(repo, ".notarai/notarai.spec.json");
    writeFileSync(schemaPath, JSON.stringify({ $id: "x", description: "Generated by noma-reconcile 0.0.1 from its zod schemas." }));
    const c = new McpClient(repo);
    const r = await c.initialize();
    expect(r.schemaNote).toMatch(/out of date \(local: noma-reconcile 0\.0\.1, bundled: noma-reconcile \d+\.\d+\.\d+/);
    expect(r.schemaNote).toMatch(/init/);
    expect(r.projectNote).toMatch(/initialized with noma-reconcile v0\.0\.1\. Run `npx noma-reconcile init` to update project configs to v\d/);
    await c.close();
  });

  it("hints when .notarai/ exists but was not set up by init (NotarAI's own files)", async () => {
    const repo = tempRepo({ ".notarai/system.spec.yaml": 'schema_version: "0.5"\nintent: x\nbehaviors: []\nartifacts: {}\n' });
    mkdirSync(join(repo, ".notarai"), { recursive: true });
    writeFileSync(join(repo, ".notarai/notarai.spec.json"), JSON.stringify({ $id: "https://notarai.dev/schema/0.5/spec.json" }));
    writeFileSync(join(repo, ".notarai/README.md"), "# NotarAI\n");
    const c = new McpClient(repo);
    const r = await c.initialize();
    expect(r.schemaNote).toMatch(/not generated by noma-reconcile/);
    expect(r.schemaNote).toMatch(/`npx noma-reconcile init --force` to replace it, keeping it as \.notarai\/notarai\.spec\.json\.bak/);
    expect(r.projectNote).toMatch(/version line/);
    expect(r.projectNote).toMatch(/`npx noma-reconcile init --force`/);
    await c.close();
  });

  it("none when the project was initialized by a newer version", async () => {
    const repo = await initialized();
    writeFileSync(join(repo, ".notarai/README.md"), "# noma-reconcile -- 99.0.0\n");
    const c = new McpClient(repo);
    expect((await c.initialize()).projectNote).toBeUndefined();
    await c.close();
  });
});
