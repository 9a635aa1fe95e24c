/**
 * Where the demo's files are: `fixtures/demo/` of the installed package,
 * found by walking up from this module (it runs from src/ in tests and from a
 * dist/chunks/ file when bundled).
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function demoFilesDir(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (;;) {
    const candidate = join(dir, "fixtures", "demo");
    if (existsSync(join(candidate, "base"))) return candidate;
    const up = dirname(dir);
    if (up === dir) throw new Error(`the demo files (fixtures/demo/) were not found above ${from}; is the package installed completely?`);
    dir = up;
  }
}
