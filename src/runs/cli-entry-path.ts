/**
 * Where this CLI's entry point (`dist/cli.js`) is, found from a module of it (src/ in tests,
 * dist/ or dist/chunks/ when bundled): what the run loop spawns as our MCP server, and what
 * `demo --keep` points the kept repository's `npx noma-reconcile` at. Null when not found.
 */
import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function cliEntryPath(from: string = fileURLToPath(import.meta.url)): string | null {
  let dir = dirname(from);
  for (let i = 0; i < 5; i++) {
    if (basename(dir) === "dist" && existsSync(join(dir, "cli.js"))) return join(dir, "cli.js");
    if (existsSync(join(dir, "dist", "cli.js")) && existsSync(join(dir, "package.json"))) return join(dir, "dist", "cli.js");
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}
