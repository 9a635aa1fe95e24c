/**
 * Where a command would be found: a name is looked up on PATH (PATHEXT on
 * Windows), a path with a separator is taken relative to `cwd`. Used to say
 * "codex: not found on PATH" before a run starts rather than after its first
 * steps.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";

function executable(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, process.platform === "win32" ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findExecutable(cmd: string, env: NodeJS.ProcessEnv, cwd: string): string | null {
  const exts = process.platform === "win32" ? (env["PATHEXT"] ?? ".EXE;.CMD;.BAT").split(";") : [""];
  if (cmd.includes("/") || cmd.includes("\\") || isAbsolute(cmd)) {
    const p = resolve(cwd, cmd);
    for (const e of exts) if (executable(p + e)) return p + e;
    return null;
  }
  for (const dir of (env["PATH"] ?? "").split(delimiter)) {
    if (dir.length === 0) continue;
    for (const e of exts) {
      const p = join(dir, cmd + e);
      if (executable(p)) return p;
    }
  }
  return null;
}
