/**
 * `search_text` (ours; the filesystem server searches names only): the lines of the
 * files below `path` that match a regular expression (JavaScript syntax) or, with
 * `literal`, a string — with `context_lines` around each, at most `max_matches` in all
 * (then `truncated`). Which files: those git shows — tracked, and untracked ones
 * `.gitignore` does not ignore (`git ls-files --cached --others --exclude-standard`); in a
 * directory git does not manage, every file below `path`. `include` / `exclude` globs
 * narrow them (a pattern with a `/` matches the path from `path`, one without a name at
 * any depth). The tools' own records — the evidence ledger (which holds every search's
 * pattern: a second search would find the first) and the archive — are left out unless
 * `path` names them. Binary files (a NUL in the first 8000 bytes) and files over
 * MAX_FILE_BYTES are skipped; symbolic links are never followed; files are opened through pinned
 * directories (pinned-dir.ts), like every read.
 *
 * The answer is grep's (`path:line:text`, `path-line-text` for context, `--` between
 * groups), with each match structured beside it: tracked files first, in path order (git
 * lists the untracked ones on another core meanwhile), then untracked ones.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { BINARY_SNIFF_BYTES } from "../../git/is-binary-content.js";
import { literalPathspec } from "../../git/chunk-paths.js";
import { GitError } from "../../git/exec-git.js";
import { listFiles, listFilesAsync } from "../../git/list-files.js";
import { compileExcludePattern } from "../../governance/glob.js";
import { formatMatches, type LineMatch, makeMatcher, type Matcher, matchLines, requiredLiteral } from "../match-lines.js";
import { DirCache } from "../dir-cache.js";
import { O_NOFOLLOW, O_NONBLOCK, openPinnedDir } from "../pinned-dir.js";
import { byteOrder, openCheckedDir, walkTree } from "../read-dir-entries.js";
import { WorkspaceError } from "../workspace-error.js";
import { MAX_FILE_BYTES } from "../workspace-schemas.js";
import type { Workspace } from "../workspace.js";
import type { ToolOutput } from "./tool-output.js";

export const DEFAULT_MAX_MATCHES = 200;

export interface SearchTextArgs {
  pattern: string;
  path?: string;
  literal?: boolean;
  case_sensitive?: boolean;
  include?: string[];
  exclude?: string[];
  context_lines?: number;
  max_matches?: number;
}

export interface SearchTextResult {
  success: true;
  content: string;
  path: string;
  matches: Array<LineMatch & { path: string }>;
  files_searched: number;
  files_matched: number;
  /** Files not searched: binary, or larger than the limit. */
  files_skipped: number;
  /** max_matches was reached: there may be more. */
  truncated: boolean;
  /** Which files: "git" (tracked and not ignored) or "walk" (a directory git does not manage). */
  source: "git" | "walk";
}

/**
 * The files to search, in two lists (repo-relative, each sorted): git's tracked files at once
 * (from the index: quick), and a promise of the untracked ones .gitignore does not ignore —
 * git walks the work tree for those on another core while the tracked files are searched.
 * Outside a git work tree, one walk of every file.
 */
function candidates(ws: Workspace, dirRel: string, isFile: boolean): { now: string[]; later: Promise<string[]>; source: "git" | "walk" } {
  // A file named is searched, ignored or not (as grep and rg search a file given to them).
  if (isFile) return { now: [dirRel], later: Promise.resolve([]), source: "walk" };
  const pathspecs = dirRel !== "" ? { pathspecs: [literalPathspec(dirRel)] } : {};
  const later = listFilesAsync(ws.root, { untracked: "only", ...pathspecs }).then((l) => [...new Set(l)].sort(byteOrder));
  try {
    const tracked = listFiles(ws.root, pathspecs);
    return { now: [...new Set(tracked)].sort(byteOrder), later, source: "git" };
  } catch (e) {
    later.catch(() => undefined);
    if (!(e instanceof GitError)) throw e;
  }
  const files: string[] = [];
  const top = openPinnedDir(ws.root, dirRel);
  try {
    walkTree(top, (rel, e) => {
      if (e.kind === "file") files.push(rel);
      return "descend";
    });
  } finally {
    top.close();
  }
  return { now: files, later: Promise.resolve([]), source: "walk" };
}

let buffer = Buffer.allocUnsafe(1 << 20);

/** A file's bytes through its pinned directory (null: gone, not a regular file, or too large). */
function readListed(dirs: DirCache, rel: string): Buffer | null | "large" {
  const slash = rel.lastIndexOf("/");
  let fd: number;
  try {
    const dir = dirs.get(slash === -1 ? "" : rel.slice(0, slash));
    fd = openSync(dir.child(rel.slice(slash + 1)), constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return null; // deleted, a symbolic link (never followed), a submodule, or a directory replaced meanwhile
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    if (st.size > MAX_FILE_BYTES) return "large";
    if (st.size > buffer.length) buffer = Buffer.allocUnsafe(st.size);
    let off = 0;
    while (off < st.size) {
      const n = readSync(fd, buffer, off, st.size - off, off);
      if (n === 0) break;
      off += n;
    }
    return buffer.subarray(0, off);
  } finally {
    closeSync(fd);
  }
}

export async function searchTextTool(ws: Workspace, args: SearchTextArgs): Promise<ToolOutput<SearchTextResult>> {
  const c = ws.check(args.path ?? ".", "read", { allowRoot: true });
  let matcher: Matcher;
  try {
    matcher = makeMatcher(args.pattern, { literal: args.literal === true, caseSensitive: args.case_sensitive !== false });
  } catch (e) {
    throw new WorkspaceError(
      "invalid_arguments",
      `pattern: not a valid regular expression (${(e as Error).message}); give literal: true to search for the text as written`,
    );
  }
  if (args.pattern.length === 0) throw new WorkspaceError("invalid_arguments", "pattern is empty");
  // A file or a directory? (A file is searched alone.)
  let isFile = false;
  if (c.rel !== "") {
    try {
      openCheckedDir(ws, c).close();
    } catch (e) {
      if (!(e instanceof WorkspaceError && e.code === "not_a_directory")) throw e;
      isFile = true;
    }
  }
  const { now, later, source } = candidates(ws, c.rel, isFile);
  const prefix = c.rel === "" || isFile ? "" : `${c.rel}/`;
  const include = (args.include ?? []).map(compileExcludePattern);
  const exclude = (args.exclude ?? []).map(compileExcludePattern);
  const max = args.max_matches ?? DEFAULT_MAX_MATCHES;
  const context = args.context_lines ?? 0;
  // A case-sensitive search skips a file without decoding it when its bytes lack the pattern (a literal),
  // or a text every match of the expression contains.
  const required = args.case_sensitive === false ? null : args.literal === true ? args.pattern : requiredLiteral(args.pattern);
  const needle = required !== null ? Buffer.from(required, "utf8") : null;
  const matches: SearchTextResult["matches"] = [];
  const lines: string[] = [];
  let searched = 0;
  let matched = 0;
  let skipped = 0;
  let truncated = false;
  const dirs = new DirCache(ws.root);
  const ledger = ws.protectedPaths.ledger;
  const archive = `${ws.protectedPaths.archive}/`;
  const records = (rel: string): boolean => !isFile && (rel === ledger || rel.startsWith(archive)) && c.rel !== ledger && !`${c.rel}/`.startsWith(archive);
  const search = (files: readonly string[]): void => {
    for (const rel of files) {
      if (isFile ? rel !== c.rel : !rel.startsWith(prefix)) continue;
      if (records(rel)) continue;
      const fromTop = isFile ? rel.slice(rel.lastIndexOf("/") + 1) : rel.slice(prefix.length);
      if (include.length > 0 && !include.some((t) => t(fromTop))) continue;
      if (exclude.some((t) => t(fromTop))) continue;
      if (matches.length >= max) {
        truncated = true;
        return;
      }
      const bytes = readListed(dirs, rel);
      if (bytes === null) continue;
      // Binary (a NUL in the first bytes, as git decides) or too large: not searched.
      if (bytes === "large" || bytes.subarray(0, BINARY_SNIFF_BYTES).indexOf(0) !== -1) {
        skipped++;
        continue;
      }
      searched++;
      if (needle !== null && bytes.indexOf(needle) === -1) continue;
      const found = matchLines(bytes.toString("utf8"), matcher, max - matches.length, context);
      if (found.length === 0) continue;
      matched++;
      for (const m of found) matches.push({ path: rel, ...m });
      lines.push(...(lines.length > 0 && context > 0 ? ["--"] : []), ...formatMatches(rel, found));
    }
  };
  try {
    // Tracked files first, while git lists the untracked ones; then those.
    search(now);
    if (!truncated) search(await later);
    else later.catch(() => undefined);
  } finally {
    dirs.close();
  }
  if (matches.length >= max && !truncated) truncated = true;
  const content = matches.length === 0 ? "No matches found" : `${lines.join("\n")}${truncated ? `\n(stopped at ${max} matches: there may be more)` : ""}`;
  return {
    body: { success: true, content, path: c.rel, matches, files_searched: searched, files_matched: matched, files_skipped: skipped, truncated, source },
    ledgerPath: c.rel,
    details: { pattern: args.pattern.slice(0, 1024), matches: matches.length, files_searched: searched, truncated },
    text: content,
  };
}
