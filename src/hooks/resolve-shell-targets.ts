/**
 * The files a shell command's writes land on, as the shell would find them from its working
 * directory (shell-writes.ts reads the words; this looks at the file system): brace
 * alternatives expanded, a leading `~` made the home directory, globs matched against the
 * directories that exist (bash's defaults: `*` never matches a leading dot, `**` is `*`
 * unless globstar is set — it is read here as any depth, which only widens what is judged),
 * `mv`/`cp` onto a directory made `<dir>/<source name>`, and the files a diff given to
 * `patch` or `git apply` names. What cannot be known before the command runs (a variable set
 * elsewhere, `$(…)`, the files `xargs` is given) is returned as unknown, with the literal
 * end of its name for the caller to judge.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, isAbsolute, join, resolve } from "node:path";
import { literalOf, MARK } from "./shell-words.js";
import type { ShellWrite } from "./shell-writes.js";

export interface ShellTarget {
  /** Absolute path. */
  abs: string;
  write: ShellWrite;
}

export interface UnknownTarget {
  /** The target as written, for messages (`$f`, `docs/$name.noma`). */
  shown: string;
  /** The literal text after its last unknown or glob part (`.noma` for `docs/$x.noma`; "" when it ends unknown). */
  tail: string;
  write: ShellWrite;
}

export interface ResolvedShellTargets {
  files: ShellTarget[];
  unknown: UnknownTarget[];
}

/** Directory entries a glob may visit before its matches count as unknown. */
const MAX_VISITED = 20_000;
/** Brace alternatives kept per word. */
const MAX_ALTERNATIVES = 256;

const GLOB = new RegExp(`[${MARK.star}${MARK.question}${MARK.bracket}]`);
const UNKNOWN = new RegExp(`[${MARK.dynamic}${MARK.varOpen}]`);

export function resolveShellTargets(writes: readonly ShellWrite[], cwd: string, home: string): ResolvedShellTargets {
  const out: ResolvedShellTargets = { files: [], unknown: [] };
  for (const write of writes) {
    for (const alt of expandBraces(write.target)) {
      const value = alt.startsWith(MARK.tilde) ? home + alt.slice(1) : alt;
      for (const r of resolveOne(value, cwd)) {
        if (r.unknown !== undefined) out.unknown.push({ shown: literalOf(value), tail: r.unknown, write });
        else landings(r.abs!, write, cwd, home, out);
      }
    }
  }
  return out;
}

/** Where a resolved target's write lands: itself, `<dir>/<name>` for each source of a copy or move onto a directory, the files a diff names. */
function landings(abs: string, write: ShellWrite, cwd: string, home: string, out: ResolvedShellTargets): void {
  if (write.diff === true) {
    const named = diffTargets(abs);
    if (named === null) out.unknown.push({ shown: `the files ${basename(abs)} names`, tail: "", write });
    else for (const p of named) out.files.push({ abs: resolve(cwd, p), write });
    return;
  }
  const sources = write.sources ?? [];
  if (sources.length > 0 && (sources.length > 1 || isDirectory(abs) || abs.endsWith("/"))) {
    for (const s of sources) {
      for (const alt of expandBraces(s)) {
        const value = alt.startsWith(MARK.tilde) ? home + alt.slice(1) : alt;
        for (const r of resolveOne(value, cwd)) {
          if (r.unknown !== undefined) out.unknown.push({ shown: `${literalOf(write.target)}/${literalOf(value)}`, tail: r.unknown, write });
          else out.files.push({ abs: join(abs, basename(r.abs!)), write });
        }
      }
    }
    return;
  }
  out.files.push({ abs, write });
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** One brace-free word: its absolute path(s), or the literal tail of what cannot be known. */
function resolveOne(value: string, cwd: string): Array<{ abs?: string; unknown?: string }> {
  if (UNKNOWN.test(value)) return [{ unknown: tailOf(value) }];
  if (GLOB.test(value)) {
    const matches = expandGlob(value, cwd);
    return matches === null ? [{ unknown: tailOf(value) }] : matches.map((abs) => ({ abs }));
  }
  return [{ abs: resolve(cwd, value) }];
}

/** The literal text after the last mark. */
function tailOf(value: string): string {
  let i = value.length;
  while (i > 0 && (value.charCodeAt(i - 1) < 0xe000 || value.charCodeAt(i - 1) > 0xe009)) i--;
  return value.slice(i);
}

/** `a{b,c}d` → abd, acd (nested; unbalanced braces stay literal); at most MAX_ALTERNATIVES. */
export function expandBraces(value: string): string[] {
  const open = value.indexOf(MARK.braceOpen);
  if (open === -1) return [value.replaceAll(MARK.braceComma, ",").replaceAll(MARK.braceClose, "}")];
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let i = open; i < value.length; i++) {
    const c = value[i];
    if (c === MARK.braceOpen) depth++;
    else if (c === MARK.braceClose && --depth === 0) {
      close = i;
      break;
    } else if (c === MARK.braceComma && depth === 1) commas.push(i);
  }
  const prefix = value.slice(0, open);
  if (close === -1 || commas.length === 0) {
    // Not an expansion (`{}`, `{a}`, unbalanced): the brace is a character; expand what follows it.
    return expandBraces(value.slice(open + 1)).map((rest) => `${prefix}{${rest}`);
  }
  const parts: string[] = [];
  let from = open + 1;
  for (const c of [...commas, close]) {
    parts.push(value.slice(from, c));
    from = c + 1;
  }
  const suffixes = expandBraces(value.slice(close + 1));
  const out: string[] = [];
  for (const part of parts) for (const p of expandBraces(part)) for (const s of suffixes) if (out.length < MAX_ALTERNATIVES) out.push(prefix + p + s);
  return out;
}

/** A glob segment as a regular expression over one name. */
function segmentRegex(segment: string): RegExp {
  let re = "^";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === MARK.star) re += "[^/]*";
    else if (c === MARK.question) re += "[^/]";
    else if (c === MARK.bracket) {
      const end = segment.indexOf("]", i + 2);
      if (end === -1) re += "\\[";
      else {
        let set = segment.slice(i + 1, end);
        if (set.startsWith("!")) set = `^${set.slice(1)}`;
        re += `[${set.replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`${re}$`);
}

/** The existing paths a glob matches (absolute, sorted), or null when it would visit more than MAX_VISITED entries. */
export function expandGlob(pattern: string, cwd: string): string[] | null {
  const absolute = pattern.startsWith("/");
  const segments = pattern.split("/").filter((s, i) => s.length > 0 || i === 0);
  let bases = [absolute ? "/" : cwd];
  let visited = 0;
  const list = (dir: string): string[] => {
    try {
      const names = readdirSync(dir);
      visited += names.length;
      return names;
    } catch {
      return [];
    }
  };
  for (const [i, segment] of segments.entries()) {
    if (segment.length === 0) continue;
    const last = i === segments.length - 1;
    if (!GLOB.test(segment)) {
      bases = bases.map((b) => join(b, segment));
      continue;
    }
    const next: string[] = [];
    if (segment === MARK.star + MARK.star) {
      // Any depth, zero included.
      const stack = [...bases];
      while (stack.length > 0) {
        const dir = stack.pop()!;
        next.push(dir);
        for (const name of list(dir)) if (!name.startsWith(".") && isDirectory(join(dir, name))) stack.push(join(dir, name));
        if (visited > MAX_VISITED) return null;
      }
      bases = next;
      continue;
    }
    const re = segmentRegex(segment);
    const dotOk = segment.startsWith(".");
    for (const dir of bases) {
      for (const name of list(dir)) {
        if ((dotOk || !name.startsWith(".")) && re.test(name) && (last || isDirectory(join(dir, name)))) next.push(join(dir, name));
      }
      if (visited > MAX_VISITED) return null;
    }
    bases = next;
  }
  return [...new Set(bases.map((b) => (isAbsolute(b) ? b : resolve(cwd, b))))].sort();
}

/** The files a diff names (`+++ b/…` of a unified diff, `*** Update/Add/Delete File:` of a Codex patch), or null when it cannot be read. */
function diffTargets(file: string): string[] | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const out = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const unified = /^(?:\+\+\+|---) (?:[ab]\/)?([^\t]+?)(?:\t.*)?$/.exec(line);
    if (unified !== null && unified[1] !== "/dev/null") out.add(unified[1]!);
    const codex = /^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/.exec(line);
    if (codex !== null) out.add((codex[1] ?? codex[2])!.trim());
  }
  return [...out];
}
