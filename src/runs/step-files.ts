/**
 * Containment of what an agent writes (norma §7): `files[]` entries must be
 * relative paths inside the step directory — no `..`, no absolute paths, no
 * path through a symbolic link that leads out — and no symbolic link inside
 * the step directory may point outside it (tools reading a committed step
 * would follow it). Escaping links are removed before the step is committed.
 */
import { lstatSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";

export interface FilesCheck {
  /** Protocol problems (the step fails with `protocol_error`). */
  problems: string[];
  /** Listed files that do not exist (an event, not a failure). */
  missing: string[];
}

function inside(base: string, target: string): boolean {
  const rel = relative(base, target);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** Check an AgentResponse's `files` against the step directory `dir` (absolute). */
export function checkListedFiles(dir: string, files: readonly string[]): FilesCheck {
  const problems: string[] = [];
  const missing: string[] = [];
  const realDir = realpathSync(dir);
  for (const f of files) {
    if (f.length === 0) {
      problems.push(`files: an empty path`);
      continue;
    }
    if (isAbsolute(f) || /^[A-Za-z]:[\\/]/.test(f) || f.startsWith("\\")) {
      problems.push(`files: ${JSON.stringify(f)} is absolute; paths must be relative to the step directory`);
      continue;
    }
    if (f.split(/[\\/]/).includes("..")) {
      problems.push(`files: ${JSON.stringify(f)} contains ".."; paths must stay inside the step directory`);
      continue;
    }
    const p = join(dir, f);
    let real: string;
    try {
      real = realpathSync(p);
    } catch {
      try {
        lstatSync(p);
        problems.push(`files: ${JSON.stringify(f)} is a broken symbolic link`);
      } catch {
        missing.push(f);
      }
      continue;
    }
    if (!inside(realDir, real)) problems.push(`files: ${JSON.stringify(f)} leads outside the step directory (through a symbolic link to ${real})`);
  }
  return { problems, missing };
}

/** Remove symbolic links under `dir` that resolve outside it (or nowhere); returns their step-relative paths. */
export function removeEscapingLinks(dir: string): string[] {
  const realDir = realpathSync(dir);
  const removed: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isSymbolicLink()) {
        let ok = false;
        try {
          ok = inside(realDir, realpathSync(p));
        } catch {
          ok = false;
        }
        if (!ok) {
          rmSync(p, { force: true });
          removed.push(relative(dir, p).split(sep).join("/"));
        }
      } else if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return removed;
}
