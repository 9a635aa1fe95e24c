/**
 * Load through both bindings at once: 50 concurrent requests to the HTTP server and
 * 50 to five MCP servers (ten in flight each), all on one repository — edits of one
 * shared file from every process, new files, reads, listings, commands (allowed and
 * refused). Afterwards `noma-reconcile ledger verify` passes with exactly one line per
 * request plus one intent line per request that changed something (every intent closed
 * by its outcome), and every version the shared file ever had is either its current
 * content or in the archive.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listArchived } from "../../src/workspace/read-archive.js";
import { openWorkspace } from "../../src/workspace/workspace.js";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";
import { HttpServer } from "./helpers/http-server.js";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

function request(binding: string, i: number): [string, Record<string, unknown>] {
  switch (i % 6) {
    case 0:
    case 5:
      return ["edit_file", { path: "shared.txt", contents: `shared by ${binding} #${i}\n` }];
    case 1:
      return ["edit_file", { path: `out/${binding}-${i}.txt`, contents: `${binding} ${i}\n`, create_if_missing: true }];
    case 2:
      return ["read_file", { path: "shared.txt" }];
    case 3:
      return ["list_files", { path: ".", recursive: true }];
    default:
      return i % 12 === 4 ? ["run_command", { command: "echo", args: [binding, String(i)] }] : ["run_command", { command: "cat", args: ["/etc/passwd"] }];
  }
}

describe("concurrent requests through both bindings", () => {
  it("50 over HTTP and 50 over MCP at once leave a verifiable ledger and every version restorable", async () => {
    const root = tempRepo({ "shared.txt": "initial\n", "tools/allowed_commands.toml": '[[command]]\nargv = ["echo", "**"]\n' });
    const http = await new HttpServer(root).ready();
    const clients = Array.from({ length: 5 }, () => new McpClient(root));
    await Promise.all(clients.map((c) => c.initialize()));
    const written: string[] = [];
    const results: Array<{ binding: string; tool: string; ok: boolean; code?: string }> = [];
    const httpCalls = Array.from({ length: 50 }, async (_, i) => {
      const [tool, args] = request("http", i);
      if (tool === "edit_file" && args["path"] === "shared.txt") written.push(args["contents"] as string);
      const r = await http.post(tool, args);
      results.push({ binding: "http", tool, ok: r.body["success"] === true, ...(typeof r.body["code"] === "string" ? { code: r.body["code"] } : {}) });
    });
    const mcpCalls = clients.flatMap((c, k) =>
      Array.from({ length: 10 }, async (_, j) => {
        const i = k * 10 + j;
        const [tool, args] = request(`mcp${k}`, i);
        if (tool === "edit_file" && args["path"] === "shared.txt") written.push(args["contents"] as string);
        const r = await c.call(tool, args);
        const body = JSON.parse(r.content[0]!.text) as Record<string, unknown>;
        results.push({ binding: "mcp", tool, ok: body["success"] === true, ...(typeof body["code"] === "string" ? { code: body["code"] } : {}) });
      }),
    );
    await Promise.all([...httpCalls, ...mcpCalls]);
    await Promise.all(clients.map((c) => c.close()));
    expect((await http.stop()).code).toBe(0);
    expect(results).toHaveLength(100);
    const unexpected = results.filter((r) => !r.ok && r.code !== "not_allowlisted");
    expect(unexpected).toEqual([]);
    expect(results.filter((r) => r.code === "not_allowlisted").length).toBeGreaterThan(0);
    const v = runCli(["ledger", "verify", "--format", "json"], { cwd: root });
    expect(v.code, v.stdout).toBe(0);
    const intents = results.filter((r) => r.ok && (r.tool === "edit_file" || r.tool === "run_command")).length;
    expect(intents).toBeGreaterThanOrEqual(40);
    expect(JSON.parse(v.stdout)).toMatchObject({ ok: true, result: { lines: 100 + intents, interrupted: [] } });
    // Every version of shared.txt survives: the current one, and all others archived.
    const current = readFileSync(join(root, "shared.txt"), "utf8");
    const archived = (await listArchived(openWorkspace(root), "shared.txt")).flatMap((a) => a.members.map((m) => m.sha256));
    const all = new Set(["initial\n", ...written]);
    expect(written.length).toBeGreaterThanOrEqual(30);
    for (const version of all) {
      if (version === current) continue;
      expect(archived, JSON.stringify(version)).toContain(sha(version));
    }
    expect(archived).toHaveLength(all.size - 1);
  });
});
