/**
 * `create_directory` (the MCP filesystem server's): make a directory and any missing
 * parents; one that exists already is fine (nothing is done, nothing recorded but the
 * request). A file in the way is `already_exists`. The directories are made one
 * component at a time through pinned directories (never through a symbolic link), after
 * the intent line naming them is durable.
 */
import { type EffectJournal, libraryJournal } from "../effect-journal.js";
import { openRoot, type PinnedDir } from "../pinned-dir.js";
import { WorkspaceError } from "../workspace-error.js";
import type { Workspace } from "../workspace.js";
import type { ToolOutput } from "./tool-output.js";

export interface CreateDirectoryResult {
  success: true;
  content: string;
  path: string;
  /** The directories made, outermost first (empty: it existed). */
  created: string[];
}

export async function createDirectoryTool(
  ws: Workspace,
  args: { path: string },
  journal: EffectJournal = libraryJournal(ws, "create_directory"),
): Promise<ToolOutput<CreateDirectoryResult>> {
  const c = ws.check(args.path, "write");
  const names = c.rel.split("/");
  let dir: PinnedDir = openRoot(ws.root);
  const created: string[] = [];
  try {
    for (let i = 0; i < names.length; i++) {
      const rel = names.slice(0, i + 1).join("/");
      let next: PinnedDir;
      try {
        next = dir.sub(names[i]!, false);
      } catch (e) {
        if (e instanceof WorkspaceError && e.code === "not_a_directory")
          throw new WorkspaceError("already_exists", `${rel}: exists and is not a directory; nothing was created`);
        if (!(e instanceof WorkspaceError && e.code === "not_found")) throw e;
        if (created.length === 0) {
          // The first directory to make: the intent names every one about to be made.
          const missing = names.slice(i).map((_, k) => names.slice(0, i + k + 1).join("/"));
          await journal.intent(c.rel, { directories: missing });
        }
        next = dir.sub(names[i]!, true);
        created.push(rel);
      }
      dir.close();
      dir = next;
    }
  } finally {
    dir.close();
  }
  const content = `Successfully created directory ${args.path}`;
  return { body: { success: true, content, path: c.rel, created }, ledgerPath: c.rel, details: { created }, text: content };
}
