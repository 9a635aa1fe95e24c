/**
 * `write_file` (the MCP filesystem server's: create a file or replace its contents) and
 * `append_file` (ours: add text at the end, creating the file when missing), through
 * replaceFile: the intent is recorded, the version overwritten archived, the new one
 * written atomically. The file's directory must exist (create_directory makes it), as
 * with the filesystem server. An existing `.noma` document is refused (patch_block
 * edits it); a new one may be created. Appending archives nothing: the previous version
 * is the start of the new one.
 */
import type { ArchivedVersion } from "../archive-version.js";
import { type EffectJournal, libraryJournal } from "../effect-journal.js";
import { replaceFile } from "../replace-file.js";
import { WorkspaceError } from "../workspace-error.js";
import { MAX_FILE_BYTES } from "../workspace-schemas.js";
import type { Workspace } from "../workspace.js";
import { ledgerDetails, refuseNomaOverwrite, writeIntent } from "./edit-file.js";
import type { ToolOutput } from "./tool-output.js";

export interface WriteFileResult {
  success: true;
  /** What the filesystem server answers. */
  content: string;
  path: string;
  bytes_written: number;
  created: boolean;
  unchanged: boolean;
  archived?: ArchivedVersion;
}

export interface AppendFileResult {
  success: true;
  content: string;
  path: string;
  bytes_appended: number;
  size: number;
  created: boolean;
}

function checkSize(rel: string, n: number): void {
  if (n > MAX_FILE_BYTES) throw new WorkspaceError("too_large", `${rel}: ${n} bytes, more than the ${MAX_FILE_BYTES} a request may write`);
}

export async function writeFileTool(
  ws: Workspace,
  args: { path: string; content: string },
  journal: EffectJournal = libraryJournal(ws, "write_file"),
): Promise<ToolOutput<WriteFileResult>> {
  const c = ws.check(args.path, "write");
  const bytes = Buffer.from(args.content, "utf8");
  checkSize(c.rel, bytes.length);
  const r = await replaceFile(
    ws,
    c,
    (old) => {
      refuseNomaOverwrite(c.rel, old, "write_file");
      return bytes;
    },
    { create: true, createDirs: false, intent: writeIntent(journal, c.rel) },
  );
  const content = `Successfully wrote to ${args.path}`;
  return {
    body: {
      success: true,
      content,
      path: c.rel,
      bytes_written: r.bytesWritten,
      created: r.created,
      unchanged: r.unchanged,
      ...(r.archived !== undefined ? { archived: r.archived } : {}),
    },
    ledgerPath: c.rel,
    details: ledgerDetails(r),
    text: content,
  };
}

export async function appendFileTool(
  ws: Workspace,
  args: { path: string; content: string },
  journal: EffectJournal = libraryJournal(ws, "append_file"),
): Promise<ToolOutput<AppendFileResult>> {
  const c = ws.check(args.path, "write");
  const added = Buffer.from(args.content, "utf8");
  let created = false;
  const r = await replaceFile(
    ws,
    c,
    (old) => {
      if (old !== null && c.rel.toLowerCase().endsWith(".noma")) refuseNomaOverwrite(c.rel, old, "append_file");
      created = old === null;
      const next = old === null ? added : Buffer.concat([old, added]);
      checkSize(c.rel, next.length);
      return next;
    },
    // The previous version is the start of the new one: nothing is lost, nothing archived.
    { create: true, createDirs: false, intent: writeIntent(journal, c.rel, { bytes_appended: added.length }), archive: false },
  );
  const content = `Successfully appended ${added.length} bytes to ${args.path}`;
  return {
    body: { success: true, content, path: c.rel, bytes_appended: added.length, size: r.bytesWritten, created },
    ledgerPath: c.rel,
    details: { bytes_appended: added.length, ...ledgerDetails(r) },
    text: content,
  };
}
