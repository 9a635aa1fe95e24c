/**
 * Against a real third-party MCP client: the MCP Inspector's CLI
 * (`@modelcontextprotocol/inspector-cli`, a pinned dev dependency: its `mcp-inspector-cli` in
 * node_modules/.bin). It is built on the official TypeScript SDK, whose client parses every
 * message with the protocol's schemas and, on a tool call, compiles every tool's outputSchema
 * and validates the call's structuredContent against it (a tool whose answer does not match
 * its schema fails the call, exit 1). It runs on every `npm test`; `MCP_INSPECTOR` may name
 * another binary (e.g. a newer inspector installed elsewhere). Only when no binary is there
 * at all is the test skipped, and its name says so.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CLI, runCli } from "../helpers/run-cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "./helpers/mcp-client.js";

const PINNED = fileURLToPath(new URL("../../node_modules/.bin/mcp-inspector-cli", import.meta.url));
const INSPECTOR = process.env["MCP_INSPECTOR"] ?? PINNED;
const available = existsSync(INSPECTOR);
/**
 * The pinned bin (build/cli.js) parses `--cli` and runs the inspector's CLI mode, build/index.js, in a
 * second node process with the command and arguments it was given, passing its output through and
 * exiting 1 when it fails. The pinned one's build/index.js is run directly: the same client, one node
 * start fewer for each of the five calls (≈ 0.36 s of CPU each). Another binary (MCP_INSPECTOR) is run as it is.
 */
const PINNED_CLIENT = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/inspector-cli/build/index.js", import.meta.url));
const direct = process.env["MCP_INSPECTOR"] === undefined && existsSync(PINNED_CLIENT);

interface Inspected {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The inspector in CLI mode against our server (`node dist/cli.cjs mcp`, started by the inspector) in `cwd`. */
function inspect(cwd: string, args: string[]): Inspected {
  // The inspector may store a catalog of servers; keep it out of the home directory.
  const env = { ...process.env, MCP_CATALOG_PATH: join(tempDir(), "catalog.json") };
  const server = [process.execPath, CLI, "mcp", ...args];
  const [command, argv] = direct ? [process.execPath, [PINNED_CLIENT, ...server]] : [INSPECTOR, ["--cli", ...server]];
  const r = spawnSync(command, argv, { cwd, env, encoding: "utf8", timeout: 60_000 });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const DOC = '::claim{id="c1" confidence=0.5}\nText.\n::\n';

describe("mcp: the MCP Inspector (a real client)", () => {
  it.skipIf(!available)(
    `lists every tool as the server sends it, calls read_doc and patch_block (answers validated against their output schemas), and reports errors${
      available ? "" : ` — skipped: no inspector at ${INSPECTOR} (run npm ci, or set MCP_INSPECTOR)`
    }`,
    async () => {
      const repo = tempRepo({ "d.noma": DOC });
      expect(runCli(["init"], { cwd: repo }).code).toBe(0);

      // tools/list: what the inspector prints is exactly what the server sends (nothing its schemas reject or drop).
      const list = inspect(repo, ["--method", "tools/list"]);
      expect(list, list.stderr).toMatchObject({ code: 0, stderr: "" });
      const server = new McpClient(repo);
      await server.initialize();
      const direct = (await server.request("tools/list")).result as { tools: Array<{ name: string }> };
      await server.close();
      expect(JSON.parse(list.stdout)).toEqual(direct);
      expect(direct.tools.map((t) => t.name)).toEqual([
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
      ]);

      // read_doc: its JSON as one text block (Annex B.3), no structuredContent (it declares no outputSchema); the body matches the
      // tool's schema (checked by McpClient.call elsewhere) and here exactly.
      const read = inspect(repo, ["--method", "tools/call", "--tool-name", "read_doc", "--tool-arg", "file=d.noma"]);
      expect(read, read.stderr).toMatchObject({ code: 0, stderr: "" });
      const doc = JSON.parse(read.stdout) as { content: Array<{ type: string; text: string }>; structuredContent?: unknown };
      expect(doc).not.toHaveProperty("isError");
      expect(doc).not.toHaveProperty("structuredContent");
      expect(doc.content).toHaveLength(1);
      const body = JSON.parse(doc.content[0]!.text) as { sha256: string; blocks: unknown[] };
      expect(Object.keys(body)).toEqual(["sha256", "blocks"]);
      expect(body.blocks).toEqual([
        {
          id: "c1",
          type: "directive",
          name: "claim",
          attrs: { confidence: 0.5 },
          childCount: 1,
          lines: [1, 3],
          patchable: true,
          hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
        { type: "paragraph", childCount: 0, lines: [2, 2], patchable: false },
      ]);

      // patch_block: the op given as JSON text (the inspector parses an object-typed argument), applied and recorded.
      const patch = inspect(repo, [
        "--method",
        "tools/call",
        "--tool-name",
        "patch_block",
        "--tool-arg",
        "file=d.noma",
        'op={"op":"update_attribute","id":"c1","key":"confidence","value":0.9}',
      ]);
      expect(patch, patch.stderr).toMatchObject({ code: 0, stderr: "" });
      const patched = (JSON.parse(patch.stdout) as { structuredContent: { ok: boolean; transcript_entry: Record<string, unknown> } }).structuredContent;
      expect(patched.ok).toBe(true);
      expect(patched.transcript_entry).toMatchObject({ op: { op: "update_attribute", id: "c1", key: "confidence", value: 0.9 }, patch_result: "applied" });
      expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(DOC.replace("confidence=0.5", "confidence=0.9"));
      expect(readFileSync(join(repo, "d.noma.patches"), "utf8").trim().split("\n")).toHaveLength(1);

      // A tool error is a result (isError), not a protocol error: exit 0, the message as text.
      const missing = inspect(repo, ["--method", "tools/call", "--tool-name", "read_doc", "--tool-arg", "file=nope.noma"]);
      expect(missing, missing.stderr).toMatchObject({ code: 0, stderr: "" });
      expect(JSON.parse(missing.stdout)).toEqual({ content: [{ type: "text", text: "nope.noma: no such file" }], isError: true });

      // A method the server does not offer: JSON-RPC's "method not found", which the inspector reports and exits 1 on.
      const resources = inspect(repo, ["--method", "resources/list"]);
      expect(resources.code).toBe(1);
      expect(resources.stderr).toContain("Failed to list resources: MCP error -32601: Method not found: resources/list");
    },
  );
});
