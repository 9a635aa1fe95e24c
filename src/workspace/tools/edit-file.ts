/**
 * `edit_file` in both shapes, and NOA `apply_patch`, all through replaceFile: the intent
 * is recorded, the previous version archived, the new one written atomically.
 *
 * - NOA's `{path, contents, create_if_missing?}` replaces the whole contents.
 * - The MCP filesystem server's `{path, edits: [{oldText, newText}], dryRun?}` applies
 *   text edits (apply-text-edits.ts: exact, else line by line ignoring indentation,
 *   which is kept) and answers with a git-style diff; `dryRun` writes nothing.
 *
 * An existing `.noma` document is refused: its edits go through `patch_block`, which
 * validates them and keeps its transcript (a new `.noma` file may be created here).
 */
import type { ArchivedVersion } from "../archive-version.js";
import { applyHunks, checkHunkOrder, type Hunk } from "../apply-hunks.js";
import { applyTextEdits, type AppliedEdit, type TextEdit } from "../apply-text-edits.js";
import { type EffectJournal, libraryJournal } from "../effect-journal.js";
import { type PlannedWrite, replaceFile, type ReplaceResult } from "../replace-file.js";
import { unifiedDiff } from "../unified-diff.js";
import { WorkspaceError } from "../workspace-error.js";
import { MAX_FILE_BYTES } from "../workspace-schemas.js";
import type { Workspace } from "../workspace.js";
import type { ToolOutput } from "./tool-output.js";

export interface EditFileResult {
  success: true;
  bytes_written: number;
  path: string;
  created: boolean;
  unchanged: boolean;
  archived?: ArchivedVersion;
  /** `edits`: the git-style diff (fenced, as the filesystem server answers). */
  content?: string;
  /** `edits`: the diff's hunks alone. */
  diff?: string;
  /** `edits`: how each edit was found. */
  edits?: AppliedEdit[];
  dry_run?: boolean;
}

export interface ApplyPatchResult {
  success: true;
  hunks_applied: number;
  bytes_written: number;
  path: string;
  archived?: ArchivedVersion;
}

export function refuseNomaOverwrite(rel: string, old: Buffer | null, tool = "edit_file"): void {
  if (old !== null && rel.toLowerCase().endsWith(".noma")) {
    throw new WorkspaceError(
      "protected_path",
      `${rel}: a Noma document is edited through the patch engine (validated ops, a transcript record each: the MCP tool patch_block, or ` +
        `\`noma-reconcile patch\` on the command line), not by ${tool}`,
    );
  }
}

export function ledgerDetails(r: ReplaceResult): Record<string, unknown> {
  return {
    bytes_written: r.bytesWritten,
    sha256: r.sha256,
    ...(r.previousSha256 !== undefined ? { previous_sha256: r.previousSha256 } : {}),
    created: r.created,
    unchanged: r.unchanged,
    ...(r.archived !== undefined ? { archive: r.archived.archive, archive_member: r.archived.member } : {}),
  };
}

/** The intent line of a write: the path, and the hash and size of the bytes about to be written. */
export function writeIntent(journal: EffectJournal, rel: string, extra: Record<string, unknown> = {}): (p: PlannedWrite) => Promise<void> {
  return (p) =>
    journal.intent(rel, {
      ...extra,
      sha256: p.sha256,
      bytes: p.bytes,
      ...(p.previousSha256 !== undefined ? { previous_sha256: p.previousSha256 } : {}),
      created: p.created,
    });
}

function tooLarge(rel: string, n: number): WorkspaceError {
  return new WorkspaceError("too_large", `${rel}: the new contents would be ${n} bytes, more than the ${MAX_FILE_BYTES} a request may write`);
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export interface EditFileArgs {
  path: string;
  contents?: string;
  create_if_missing?: boolean;
  edits?: TextEdit[];
  dryRun?: boolean;
}

export async function editFileTool(
  ws: Workspace,
  args: EditFileArgs,
  journal: EffectJournal = libraryJournal(ws, "edit_file"),
): Promise<ToolOutput<EditFileResult>> {
  if (args.edits !== undefined) return editsTool(ws, args as EditFileArgs & { edits: TextEdit[] }, journal);
  if (args.contents === undefined)
    throw new WorkspaceError(
      "invalid_arguments",
      "invalid arguments for edit_file: give contents (the whole new file) or edits ([{oldText, newText}], the changes)",
    );
  const c = ws.check(args.path, "write");
  const bytes = Buffer.from(args.contents, "utf8");
  if (bytes.length > MAX_FILE_BYTES)
    throw new WorkspaceError("too_large", `contents: ${bytes.length} bytes, more than the ${MAX_FILE_BYTES} a request may write`);
  const r = await replaceFile(
    ws,
    c,
    (old) => {
      refuseNomaOverwrite(c.rel, old);
      return bytes;
    },
    { create: args.create_if_missing === true, intent: writeIntent(journal, c.rel) },
  );
  const body: EditFileResult = {
    success: true,
    bytes_written: r.bytesWritten,
    path: c.rel,
    created: r.created,
    unchanged: r.unchanged,
    ...(r.archived !== undefined ? { archived: r.archived } : {}),
  };
  return { body, ledgerPath: c.rel, details: ledgerDetails(r) };
}

/** The filesystem server's shape: text edits, a diff back; `dryRun` only computes it. */
async function editsTool(ws: Workspace, args: EditFileArgs & { edits: TextEdit[] }, journal: EffectJournal): Promise<ToolOutput<EditFileResult>> {
  if (args.contents !== undefined || args.create_if_missing !== undefined)
    throw new WorkspaceError(
      "invalid_arguments",
      "invalid arguments for edit_file: edits (text replacements) and contents / create_if_missing (the whole file) are two ways to call it; give one",
    );
  if (args.edits.length === 0) throw new WorkspaceError("invalid_arguments", "invalid arguments for edit_file: edits is empty");
  const c = ws.check(args.path, args.dryRun === true ? "read" : "write");
  let before = "";
  let after = "";
  let applied: AppliedEdit[] = [];
  const compute = (old: Buffer | null): Uint8Array => {
    if (old === null) throw new WorkspaceError("not_found", `${c.rel}: no such file (edits change existing files; write_file creates them)`);
    refuseNomaOverwrite(c.rel, old);
    try {
      before = utf8.decode(old);
    } catch {
      throw new WorkspaceError("not_utf8", `${c.rel}: not UTF-8 text; edits apply to text files`);
    }
    const r = applyTextEdits(before, args.edits);
    after = r.text;
    applied = r.applied;
    const next = Buffer.from(after, "utf8");
    if (next.length > MAX_FILE_BYTES) throw tooLarge(c.rel, next.length);
    return next;
  };
  let result: EditFileResult;
  let details: Record<string, unknown>;
  if (args.dryRun === true) {
    const { readCheckedFile } = await import("./read-file.js");
    const next = compute(readCheckedFile(ws, c, MAX_FILE_BYTES).bytes);
    result = { success: true, bytes_written: 0, path: c.rel, created: false, unchanged: before === after, dry_run: true };
    details = { dry_run: true, edits: args.edits.length, sha256_after: (await import("node:crypto")).createHash("sha256").update(next).digest("hex") };
  } else {
    const r = await replaceFile(ws, c, compute, { create: false, intent: writeIntent(journal, c.rel, { edits: args.edits.length }) });
    result = {
      success: true,
      bytes_written: r.bytesWritten,
      path: c.rel,
      created: false,
      unchanged: r.unchanged,
      ...(r.archived !== undefined ? { archived: r.archived } : {}),
      dry_run: false,
    };
    details = { edits: args.edits.length, ...ledgerDetails(r) };
  }
  const full = unifiedDiff(c.rel, before, after);
  const content = `\`\`\`diff\n${full}\`\`\`\n\n`;
  const diff = full.slice(full.indexOf("\n", full.indexOf("+++ ")) + 1);
  return { body: { ...result, content, diff, edits: applied }, ledgerPath: c.rel, details, text: content };
}

export async function applyPatchTool(
  ws: Workspace,
  args: { path: string; hunks: Hunk[] },
  journal: EffectJournal = libraryJournal(ws, "apply_patch"),
): Promise<ToolOutput<ApplyPatchResult>> {
  checkHunkOrder(args.hunks);
  const c = ws.check(args.path, "write");
  const r = await replaceFile(
    ws,
    c,
    (old) => {
      if (old === null) throw new WorkspaceError("not_found", `${c.rel}: no such file (apply_patch changes existing files; edit_file creates them)`);
      refuseNomaOverwrite(c.rel, old, "apply_patch");
      const next = applyHunks(old, args.hunks, c.rel);
      if (next.length > MAX_FILE_BYTES)
        throw new WorkspaceError("too_large", `${c.rel}: the patched file would be ${next.length} bytes, more than ${MAX_FILE_BYTES}`);
      return next;
    },
    { create: false, intent: writeIntent(journal, c.rel, { hunks: args.hunks.length }) },
  );
  const body: ApplyPatchResult = {
    success: true,
    hunks_applied: args.hunks.length,
    bytes_written: r.bytesWritten,
    path: c.rel,
    ...(r.archived !== undefined ? { archived: r.archived } : {}),
  };
  return { body, ledgerPath: c.rel, details: { hunks_applied: args.hunks.length, ...ledgerDetails(r) } };
}
