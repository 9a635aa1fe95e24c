/**
 * `search_files` (the MCP filesystem server's): the files and directories below `path`
 * whose path from there matches the glob `pattern` (`*.ts` at the top, `**\/*.ts` at
 * any depth; dot files included), answered as it does — their absolute paths, one a
 * line, or `No matches found` — with the repository paths structured beside it.
 * `excludePatterns` leave out an entry and everything below it (a pattern with a `/`
 * matches the path from `path`, one without a name at any depth). Symbolic links are
 * matched, never followed; `.git` is left out. At most MAX_SEARCH_MATCHES matches (then
 * `truncated`).
 */
import { join } from "node:path";
import { compileExcludePattern, compileGlob } from "../../governance/glob.js";
import { openCheckedDir, walkTree } from "../read-dir-entries.js";
import type { Workspace } from "../workspace.js";
import type { ToolOutput } from "./tool-output.js";

export const MAX_SEARCH_MATCHES = 10_000;

export interface SearchFilesResult {
  success: true;
  content: string;
  path: string;
  /** Repository-relative paths, in walk order (names in byte order, depth first). */
  matches: string[];
  truncated: boolean;
}

export function searchFilesTool(ws: Workspace, args: { path: string; pattern: string; excludePatterns?: string[] }): ToolOutput<SearchFilesResult> {
  const c = ws.check(args.path, "read", { allowRoot: true });
  const match = compileGlob(args.pattern);
  const excludes = (args.excludePatterns ?? []).map(compileExcludePattern);
  const prefix = c.rel === "" ? "" : `${c.rel}/`;
  const matches: string[] = [];
  let truncated = false;
  const top = openCheckedDir(ws, c);
  try {
    walkTree(top, (rel) => {
      const fromTop = rel.slice(prefix.length);
      if (excludes.some((x) => x(fromTop))) return "skip";
      if (match(fromTop)) {
        if (matches.length >= MAX_SEARCH_MATCHES) {
          truncated = true;
          return "stop";
        }
        matches.push(rel);
      }
      return "descend";
    });
  } finally {
    top.close();
  }
  const content = matches.length === 0 ? "No matches found" : matches.map((m) => join(ws.root, m)).join("\n");
  return {
    body: { success: true, content, path: c.rel, matches, truncated },
    ledgerPath: c.rel,
    details: { pattern: args.pattern.slice(0, 1024), matches: matches.length, truncated },
    text: content,
  };
}
