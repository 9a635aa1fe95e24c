/**
 * Against a real third-party MCP client: the MCP Inspector's CLI mode (built
 * on the official SDK, which validates structuredContent against each tool's
 * outputSchema, and whose --strict mode lints tool schemas for portability).
 * It is not a project dependency: install it anywhere outside the repository
 * and point MCP_INSPECTOR at its binary, e.g.
 *   npm install --prefix /tmp/inspector @modelcontextprotocol/inspector
 *   MCP_INSPECTOR=/tmp/inspector/node_modules/.bin/mcp-inspector npx vitest run test/mcp/inspector.test.ts
 * Without it the test is skipped (and says so).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, runCli } from "../helpers/run-cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

const INSPECTOR = process.env["MCP_INSPECTOR"];
const available = INSPECTOR !== undefined && existsSync(INSPECTOR);

function inspect(cwd: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  // The inspector stores a catalog of servers; keep it out of the home directory.
  const env = { ...process.env, MCP_CATALOG_PATH: join(tempDir(), "catalog.json") };
  const r = spawnSync(INSPECTOR!, ["--cli", process.execPath, CLI, "mcp", ...args], { cwd, env, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("mcp: the MCP Inspector (a real client)", () => {
  it.skipIf(!available)(
    `lists tools with portable schemas and calls read_doc and patch_block${available ? "" : " — skipped: set MCP_INSPECTOR to an mcp-inspector binary"}`,
    () => {
      const repo = tempRepo({ "d.noma": '::claim{id="c1" confidence=0.5}\nText.\n::\n' });
      expect(runCli(["init"], { cwd: repo }).code).toBe(0);

      const list = inspect(repo, ["--method", "tools/list", "--strict"]);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stderr).not.toMatch(/^(Error|Warning): tool/m);
      expect((JSON.parse(list.stdout) as { tools: unknown[] }).tools).toHaveLength(19);

      const read = inspect(repo, ["--method", "tools/call", "--tool-name", "read_doc", "--tool-arg", "file=d.noma"]);
      expect(read.code, read.stderr).toBe(0);
      const doc = JSON.parse(read.stdout) as { structuredContent: { blocks: Array<{ id?: string }> }; isError?: boolean };
      expect(doc.isError).toBeUndefined();
      expect(doc.structuredContent.blocks[0]!.id).toBe("c1");

      const patch = inspect(repo, [
        "--method",
        "tools/call",
        "--tool-name",
        "patch_block",
        "--tool-arg",
        "file=d.noma",
        'op={"op":"update_attribute","id":"c1","key":"confidence","value":0.9}',
      ]);
      expect(patch.code, patch.stderr).toBe(0);
      expect((JSON.parse(patch.stdout) as { structuredContent: { ok: boolean } }).structuredContent.ok).toBe(true);
      expect(readFileSync(join(repo, "d.noma"), "utf8")).toContain("confidence=0.9");
    },
  );
});
