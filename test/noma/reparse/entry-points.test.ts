/**
 * Incremental re-parsing is reached through its two entry points only: reparseEdited (a
 * parsed tree and an edit → the tree of the edited text) and reparseCompactLine (a
 * table-only parse and an edit within one directive's opening line → its table, or
 * nothing). Its helpers are no one else's, and the parser does not depend on it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const REPARSE = "src/noma/reparse/";
const ENTRIES = ["src/noma/reparse/reparse-compact-line.ts", "src/noma/reparse/reparse-edited.ts"];
const SPECIFIER = /(?:from\s+|import\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g;

/** Repository-relative paths of the TypeScript files under `dir`. */
function sources(dir: string): string[] {
  return (readdirSync(join(ROOT, dir), { recursive: true }) as string[]).filter((f) => f.endsWith(".ts")).map((f) => join(dir, f).split("\\").join("/"));
}

describe("src/noma/reparse/", () => {
  it("is imported from outside only through reparse-edited.ts and reparse-compact-line.ts", () => {
    const reached = new Map<string, string[]>();
    for (const file of [...sources("src"), ...sources("test")]) {
      if (file.startsWith(REPARSE) || file.startsWith("test/noma/reparse/")) continue;
      for (const [, spec] of readFileSync(join(ROOT, file), "utf8").matchAll(SPECIFIER)) {
        const target = relative(ROOT, resolve(ROOT, dirname(file), spec!))
          .split("\\")
          .join("/")
          .replace(/\.js$/, ".ts");
        if (!target.startsWith(REPARSE)) continue;
        reached.set(target, [...(reached.get(target) ?? []), file]);
      }
    }
    const internal = [...reached].filter(([target]) => !ENTRIES.includes(target));
    expect(internal).toEqual([]);
    expect([...reached.keys()].sort()).toEqual(ENTRIES);
    // The parser itself never reaches into the re-parse.
    for (const files of reached.values()) expect(files.filter((f) => f.startsWith("src/noma/") && !f.startsWith(REPARSE))).toEqual([]);
  });
});
