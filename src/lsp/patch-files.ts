/**
 * Edits the server makes go through the patch engine, as `noma-reconcile patch` makes them:
 * under each document's lock, only if its bytes are still the ones the ops were planned on
 * (expected_sha), atomically, with one transcript record per op appended to its transcript
 * (started if there is none). The editor's buffer then receives the resulting text.
 *
 * A buffer with unsaved changes is refused: the patch engine edits the file, and its
 * transcript records the file's states, so an edit planned on a buffer that differs from the
 * file would either be planned on text the transcript never sees or overwrite the typing.
 * Several files (a rename across a book) are each one atomic op list; every list is tried
 * (dry run) before the first is written, so a list that would be rejected writes nothing.
 */
import { isUtf8 } from "node:buffer";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { worktreeChapterLookup } from "../check/worktree-books.js";
import { patchDocument } from "../editing/patch-document.js";
import { NomaError } from "../errors/noma-error.js";
import { sha256Hex } from "../patch/sha256-hex.js";
import type { Actor } from "../transcript/transcript-record.js";
import type { LspSession } from "./lsp-session.js";
import { pathUri } from "./lsp-uri.js";
import type { WorkspaceRoot } from "./workspace-root.js";

export class EditRefusedError extends NomaError {
  static override readonly errorName: string = "EditRefusedError";
  constructor(message: string) {
    super("edit-refused", message);
  }
}

export interface FilePatch {
  rel: string;
  ops: Record<string, unknown>[];
  /** The text the ops were planned on (the file's, which the editor's buffer must equal). */
  planned: string;
}

export interface PatchedFile {
  rel: string;
  abs: string;
  before: string;
  after: string;
  /** Repository-relative path of the transcript the records went to. */
  transcript: string;
}

export interface PatchFilesOptions {
  actor: Actor;
  reason: string;
  lockTimeoutMs?: number;
}

/** The file's text, refusing one the editor holds with unsaved changes or one changed since the ops were planned. */
function fileText(session: LspSession, root: WorkspaceRoot, p: FilePatch): { bytes: Buffer; text: string } {
  const abs = join(root.root, p.rel);
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch (e) {
    throw new EditRefusedError(`${p.rel} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (!isUtf8(bytes)) throw new EditRefusedError(`${p.rel} is not valid UTF-8; the patch engine does not edit it`);
  const text = bytes.toString("utf8");
  const open = session.documentAt(abs);
  if (open !== undefined && open.text !== text)
    throw new EditRefusedError(
      `${p.rel} has unsaved changes in the editor: save it first (the patch engine edits the file, and its transcript records the file's states)`,
    );
  if (text !== p.planned) throw new EditRefusedError(`${p.rel} changed since the edit was planned; ask for it again`);
  return { bytes, text };
}

export function patchFiles(session: LspSession, root: WorkspaceRoot, patches: readonly FilePatch[], options: PatchFilesOptions): PatchedFile[] {
  const read = patches.map((p) => ({ p, ...fileText(session, root, p) }));
  const common = (p: FilePatch, sha: string) => ({
    actor: options.actor,
    reason: options.reason,
    expectedSha: sha,
    root: root.root,
    validate: { resolveOutside: worktreeChapterLookup(root.root, root.inRepo, p.rel) },
    ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
  });
  // Every list tried before any is written.
  for (const { p, bytes } of read) {
    const tried = patchDocument(join(root.root, p.rel), p.ops, { ...common(p, sha256Hex(bytes)), dryRun: true });
    if (tried.outcome.result !== "applied")
      throw new EditRefusedError(
        tried.outcome.error !== undefined ? `${p.rel}: ${tried.outcome.error.code}: ${tried.outcome.error.message}` : `${p.rel}: the ops change nothing`,
      );
  }
  const out: PatchedFile[] = [];
  for (const { p, bytes, text } of read) {
    const abs = join(root.root, p.rel);
    const done = patchDocument(abs, p.ops, common(p, sha256Hex(bytes)));
    if (done.outcome.result !== "applied") {
      const written = out.map((f) => f.rel).join(", ");
      const why = `${done.outcome.error?.code ?? "noop"}: ${done.outcome.error?.message ?? "nothing changed"}`;
      throw new EditRefusedError(`${p.rel}: ${why}${written.length > 0 ? ` (already written: ${written})` : ""}`);
    }
    session.fileChanged(session.place(session.documentAt(abs)?.uri ?? pathUri(abs)));
    out.push({ rel: p.rel, abs, before: text, after: done.outcome.text, transcript: `${p.rel}.patches` });
  }
  return out;
}
