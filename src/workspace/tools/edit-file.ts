/**
 * NOA `edit_file` (replace a file's whole contents) and `apply_patch` (line hunks, all
 * or nothing), both through replaceFile: the previous version is archived first, the
 * new one written atomically. An existing `.noma` document is refused: its edits go
 * through `patch_block`, which validates them and keeps its transcript (a new `.noma`
 * file may be created here).
 */
import type { ArchivedVersion } from "../archive-version.js";
import { applyHunks, checkHunkOrder, type Hunk } from "../apply-hunks.js";
import { replaceFile, type ReplaceResult } from "../replace-file.js";
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
}

export interface ApplyPatchResult {
  success: true;
  hunks_applied: number;
  bytes_written: number;
  path: string;
  archived?: ArchivedVersion;
}

function refuseNomaOverwrite(rel: string, old: Buffer | null): void {
  if (old !== null && rel.toLowerCase().endsWith(".noma")) {
    throw new WorkspaceError(
      "protected_path",
      `${rel}: a Noma document is edited through the patch engine (validated ops, a transcript record each: the MCP tool patch_block, or \`noma-reconcile patch\` on the command line), not overwritten`,
    );
  }
}

function ledgerDetails(r: ReplaceResult): Record<string, unknown> {
  return {
    bytes_written: r.bytesWritten,
    sha256: r.sha256,
    ...(r.previousSha256 !== undefined ? { previous_sha256: r.previousSha256 } : {}),
    created: r.created,
    unchanged: r.unchanged,
    ...(r.archived !== undefined ? { archive: r.archived.archive, archive_member: r.archived.member } : {}),
  };
}

export async function editFileTool(ws: Workspace, args: { path: string; contents: string; create_if_missing?: boolean }): Promise<ToolOutput<EditFileResult>> {
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
    { create: args.create_if_missing === true },
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

export async function applyPatchTool(ws: Workspace, args: { path: string; hunks: Hunk[] }): Promise<ToolOutput<ApplyPatchResult>> {
  checkHunkOrder(args.hunks);
  const c = ws.check(args.path, "write");
  const r = await replaceFile(
    ws,
    c,
    (old) => {
      if (old === null) throw new WorkspaceError("not_found", `${c.rel}: no such file (apply_patch changes existing files; edit_file creates them)`);
      refuseNomaOverwrite(c.rel, old);
      const next = applyHunks(old, args.hunks, c.rel);
      if (next.length > MAX_FILE_BYTES)
        throw new WorkspaceError("too_large", `${c.rel}: the patched file would be ${next.length} bytes, more than ${MAX_FILE_BYTES}`);
      return next;
    },
    { create: false },
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
