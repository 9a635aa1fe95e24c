/**
 * Where this CLI's entry point (`dist/cli.cjs`, the bin) is, found from a module of it (src/ in tests,
 * dist/ or dist/chunks/ when bundled): what the run loop spawns as our MCP server, and what
 * `demo --keep` points the kept repository's `npx noma-reconcile` at. Null when not found.
 */
import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function cliEntryPath(from: string = fileURLToPath(import.meta.url)): string | null {
  let dir = dirname(from);
  for (let i = 0; i < 5; i++) {
    if (basename(dir) === "dist" && existsSync(join(dir, "cli.cjs"))) return join(dir, "cli.cjs");
    if (existsSync(join(dir, "dist", "cli.cjs")) && existsSync(join(dir, "package.json"))) return join(dir, "dist", "cli.cjs");
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}
