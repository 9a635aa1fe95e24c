/**
 * The `.notarai/README.md` that `init` writes lists every MCP tool the
 * server has, with its title, in the catalog's order (and nothing else).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOOL_CATALOG } from "../../src/internal.js";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

describe(".notarai/README.md lists the MCP tools", () => {
  it("names every tool of the catalog with its title, in order", () => {
    const repo = tempRepo({ "src/a.ts": "a\n" });
    const r = runCli(["init"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const readme = readFileSync(join(repo, ".notarai/README.md"), "utf8");
    const listed = [...readme.matchAll(/^- `([a-z_]+)` — (.+)$/gm)].map((m) => [m[1], m[2]]);
    const catalog = TOOL_CATALOG.map((t) => [t.name, t.title]);
    // On failure: update src/init/mcp-tool-titles.ts to this list.
    expect(listed, `src/init/mcp-tool-titles.ts must list: ${JSON.stringify(catalog)}`).toEqual(catalog);
  });
});
