/**
 * The environment and executable of a workspace command.
 *
 * PATH is the server's own, minus every entry that is relative or that resolves into
 * the repository (a tool could write an executable there — `node_modules/.bin` included —
 * and a bare name would then run it). The executable is looked up on that PATH here,
 * so the absolute path that ran is known and recorded. Nothing else is inherited unless
 * named: the allowlist record's `inherit` names, its fixed `env`, and the request's
 * `environment` keys the record accepts.
 */
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join, relative, sep } from "node:path";

/** PATH entries that are absolute and outside `root` (real paths compared). */
export function sanitizedPath(pathValue: string | undefined, root: string): string[] {
  const out: string[] = [];
  for (const entry of (pathValue ?? "").split(delimiter)) {
    if (entry.length === 0 || !isAbsolute(entry)) continue;
    let real = entry;
    try {
      real = realpathSync(entry);
    } catch {
      continue; // does not exist: nothing to run from it
    }
    const rel = relative(root, real);
    const inside = rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
    if (inside || out.includes(entry)) continue;
    out.push(entry);
  }
  return out;
}

/** The first executable regular file named `name` on `dirs`, or null. */
export function findExecutable(name: string, dirs: readonly string[]): string | null {
  const exts = process.platform === "win32" ? ["", ...(process.env["PATHEXT"] ?? ".EXE;.CMD;.BAT").split(";").filter((e) => e.length > 0)] : [""];
  for (const d of dirs) {
    for (const ext of exts) {
      const p = join(d, name + ext);
      try {
        if (!statSync(p).isFile()) continue;
        accessSync(p, constants.X_OK);
        return p;
      } catch {
        /* next */
      }
    }
  }
  return null;
}

/** Variables a process needs on Windows to start at all. */
const WINDOWS_BASE = ["SystemRoot", "SYSTEMROOT", "windir", "ComSpec", "PATHEXT", "TEMP", "TMP"];

export interface CommandEnvInput {
  serverEnv: NodeJS.ProcessEnv;
  root: string;
  inherit: readonly string[];
  fixed: Record<string, string>;
  request: Record<string, string>;
}

/** The exact environment of a command: PATH (sanitised), inherited names, fixed values, then accepted request values. */
export function commandEnv(input: CommandEnvInput): { env: Record<string, string>; pathDirs: string[] } {
  const pathDirs = sanitizedPath(input.serverEnv["PATH"] ?? input.serverEnv["Path"], input.root);
  const env: Record<string, string> = { PATH: pathDirs.join(delimiter) };
  if (process.platform === "win32") for (const k of WINDOWS_BASE) if (input.serverEnv[k] !== undefined) env[k] = input.serverEnv[k]!;
  for (const k of input.inherit) if (input.serverEnv[k] !== undefined) env[k] = input.serverEnv[k]!;
  Object.assign(env, input.fixed, input.request);
  return { env, pathDirs };
}
