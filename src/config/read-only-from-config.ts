/**
 * Whether `.notarai/config.yaml` makes the workspace read-only (`workspace.read_only:
 * true`), for a server deciding which tools to list before anything else is loaded: a
 * file that does not mention `read_only` is not parsed (no YAML loaded on start-up). An
 * invalid file that says `read_only: true` on a line of its own is read-only all the same
 * (failing closed); the tools' own configuration load reports what is wrong with it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export async function readOnlyFromConfig(root: string): Promise<boolean> {
  let text: string;
  try {
    text = readFileSync(join(root, ".notarai", "config.yaml"), "utf8");
  } catch {
    return false;
  }
  if (!text.includes("read_only")) return false;
  try {
    // The parser (YAML, zod) loads only for a file that mentions read_only.
    const { loadConfig, worktreeReader } = await import("./load-config.js");
    return loadConfig({ cwd: root, read: worktreeReader(root), onWarning: () => undefined }).workspace.readOnly === true;
  } catch {
    return /^\s*read_only\s*:\s*(true|yes|on)\s*(#.*)?$/im.test(text);
  }
}
