/**
 * `render --to noma` of a large document through the real CLI: read while the modules load,
 * run from its compiled body, rendered from the block table and written in chunks — the same
 * text as the library's rendering of the node tree, with and without the compile cache and
 * the short-run V8 settings.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseNoma, renderNoma } from "../../src/internal.js";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

function bigDocument(): string {
  const parts: string[] = ["---\ntitle: big\nprofile: research\n---"];
  for (let i = 0; i < 4000; i++) {
    parts.push(`## Part ${i % 11}`, `::claim{id="c${i}"   confidence=0.50 owner='ana'}\nText ${i} [[c${i}]].\n::`);
    parts.push("| a | bb |\n|:-|--:|\n| 1 | 2 |", "3. one\n9. two", ">quoted\n> again", "```js\ncode();\n```", "---");
  }
  return `${parts.join("\n\n\n")}\n`;
}

describe("render --to noma of a large document", () => {
  it("prints the library's rendering, whatever the start-up settings", () => {
    const text = bigDocument();
    expect(text.length).toBeGreaterThan(512 * 1024);
    const repo = tempRepo({});
    writeFileSync(join(repo, "big.noma"), text);
    const tree = parseNoma(text);
    void tree.children;
    const expected = renderNoma(tree);
    for (const env of [{}, { NOMA_RECONCILE_COMPILE_CACHE: "0" }, { NOMA_RECONCILE_JIT: "default" }]) {
      const r = runCli(["render", "big.noma", "--to", "noma"], { cwd: repo, env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout === expected, JSON.stringify(env)).toBe(true);
    }
  });
});
