/**
 * `list_directory` and `list_directory_with_sizes` (the MCP filesystem server's): one
 * directory's entries, answered as it does — `[FILE] name` / `[DIR] name` lines, with
 * sizes and totals for the second (`sortBy`: name, or size, largest first) — and
 * structured beside it: each entry's name, kind (file, dir, symlink, other: a symbolic
 * link is listed, never followed, and shown as [FILE]) and size. `.git` is left out.
 */
import { formatSize } from "../format-size.js";
import { type DirEntry, byteOrder, openCheckedDir, readEntries } from "../read-dir-entries.js";
import type { Workspace } from "../workspace.js";
import type { ToolOutput } from "./tool-output.js";

export interface ListDirectoryResult {
  success: true;
  content: string;
  path: string;
  entries: DirEntry[];
  /** list_directory_with_sizes: files and directories counted, the files' sizes summed. */
  files?: number;
  directories?: number;
  total_size?: number;
}

export function listDirectoryTool(ws: Workspace, args: { path: string; sortBy?: "name" | "size" }, sizes: boolean): ToolOutput<ListDirectoryResult> {
  const c = ws.check(args.path, "read", { allowRoot: true });
  const dir = openCheckedDir(ws, c);
  let entries: DirEntry[];
  try {
    entries = readEntries(dir, sizes);
  } finally {
    dir.close();
  }
  const tag = (e: DirEntry): string => (e.kind === "dir" ? "[DIR]" : "[FILE]");
  if (!sizes) {
    const content = entries.map((e) => `${tag(e)} ${e.name}`).join("\n");
    return { body: { success: true, content, path: c.rel, entries }, ledgerPath: c.rel, details: { entries: entries.length }, text: content };
  }
  if (args.sortBy === "size") entries = [...entries].sort((a, b) => b.size - a.size || byteOrder(a.name, b.name));
  const files = entries.filter((e) => e.kind !== "dir");
  const directories = entries.length - files.length;
  const total = files.reduce((n, e) => n + e.size, 0);
  const lines = entries.map((e) => (e.kind === "dir" ? `[DIR] ${e.name.padEnd(30)} ` : `[FILE] ${e.name.padEnd(30)} ${formatSize(e.size).padStart(10)}`));
  const content = [...lines, "", `Total: ${files.length} files, ${directories} directories`, `Combined size: ${formatSize(total)}`].join("\n");
  return {
    body: { success: true, content, path: c.rel, entries, files: files.length, directories, total_size: total },
    ledgerPath: c.rel,
    details: { entries: entries.length, total_size: total },
    text: content,
  };
}
