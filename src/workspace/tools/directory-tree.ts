/**
 * `directory_tree` (the MCP filesystem server's, plus `maxDepth`): a directory's tree as
 * JSON — `[{name, type: "file" | "directory", children?}]`, every directory with a
 * `children` array, files without — answered as the filesystem server does (that JSON,
 * indented by two spaces) and structured beside it. `excludePatterns` leave out an entry
 * and everything below it: a pattern with a `/` matches the path from the tree's top, one
 * without matches a name at any depth (like .gitignore). `maxDepth` N stops N levels down:
 * the directories there have `children: []` and `truncated: true`. Symbolic links are
 * listed (as files), never followed; `.git` is left out. At most MAX_TREE_ENTRIES nodes
 * (then `truncated`).
 */
import { compileExcludePattern } from "../../governance/glob.js";
import { openCheckedDir, walkTree } from "../read-dir-entries.js";
import type { Workspace } from "../workspace.js";
import type { ToolOutput } from "./tool-output.js";

export const MAX_TREE_ENTRIES = 100_000;

export interface TreeNode {
  name: string;
  type: "file" | "directory";
  children?: TreeNode[];
  /** maxDepth stopped here: the directory's contents are not listed. */
  truncated?: true;
}

export interface DirectoryTreeResult {
  success: true;
  content: string;
  path: string;
  tree: TreeNode[];
  entries: number;
  /** Some entries were left out: MAX_TREE_ENTRIES reached. */
  truncated: boolean;
}

export function directoryTreeTool(ws: Workspace, args: { path: string; excludePatterns?: string[]; maxDepth?: number }): ToolOutput<DirectoryTreeResult> {
  const c = ws.check(args.path, "read", { allowRoot: true });
  const excludes = (args.excludePatterns ?? []).map(compileExcludePattern);
  const top = openCheckedDir(ws, c);
  const tree: TreeNode[] = [];
  // The children array of each directory being filled, by repo-relative path.
  const parents = new Map<string, TreeNode[]>([[c.rel, tree]]);
  const prefix = c.rel === "" ? "" : `${c.rel}/`;
  let entries = 0;
  let truncated = false;
  try {
    walkTree(top, (rel, e, depth) => {
      const fromTop = rel.slice(prefix.length);
      if (excludes.some((x) => x(fromTop))) return "skip";
      if (entries >= MAX_TREE_ENTRIES) {
        truncated = true;
        return "stop";
      }
      entries++;
      const parentRel = rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "";
      const siblings = parents.get(parentRel)!;
      if (e.kind !== "dir") {
        siblings.push({ name: e.name, type: "file" });
        return "skip";
      }
      const node: TreeNode = { name: e.name, type: "directory", children: [] };
      siblings.push(node);
      if (args.maxDepth !== undefined && depth >= args.maxDepth) {
        node.truncated = true;
        return "skip";
      }
      parents.set(rel, node.children!);
      return "descend";
    });
  } finally {
    top.close();
  }
  const content = JSON.stringify(tree, null, 2);
  return {
    body: { success: true, content, path: c.rel, tree, entries, truncated },
    ledgerPath: c.rel,
    details: { entries, truncated, ...(args.maxDepth !== undefined ? { max_depth: args.maxDepth } : {}) },
    text: content,
  };
}
