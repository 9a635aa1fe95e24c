/**
 * Rename of a block id (textDocument/prepareRename, textDocument/rename): the directive's id
 * and every reference to it, in its document and in the chapters of its books, as patch op
 * lists (plan-rename-id.ts) applied through the patch engine, file by file, each list
 * atomic, every list tried before the first is written (patch-files.ts). The answer is the
 * edit that brings the editor's open buffers to the files' new texts (files the editor does
 * not hold are already written). A section's id, a name that resolves nowhere, a new id
 * already in use and unsaved changes in any file to edit are refused, with the reason.
 */
import { join } from "node:path";
import { LSPErrorCodes, type Position, type Range, ResponseError, type WorkspaceEdit } from "vscode-languageserver/node";
import { planRenameId, RenameRefusedError } from "../editing/plan-rename-id.js";
import { bookChapters } from "./book-lookup.js";
import { atCursor, type Navigation, spanRange } from "./navigation.js";
import type { OpenDocument } from "./open-document.js";
import { EditRefusedError, patchFiles } from "./patch-files.js";
import { buffersEdit, editorActor } from "./quick-fixes.js";

function refused(message: string): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestFailed, message);
}

export function prepareRename(nav: Navigation, doc: OpenDocument, pos: Position): { range: Range; placeholder: string } | null {
  const at = atCursor(nav, doc, pos);
  if (at === null) return null;
  if (at.located === null) throw refused(`"${at.target.kind === "reference" ? at.target.target : at.target.name}" names no block: nothing to rename`);
  const b = at.located.block;
  if (b.type !== "directive")
    throw refused(`"${b.id}" is a section's id (made from its heading or its {id=…}); rename_id renames directive ids only: edit the heading instead`);
  return { range: spanRange(at.target.span), placeholder: b.id! };
}

export interface RenameResult {
  edit: WorkspaceEdit;
  /** What to tell the person (references left as written, the alias kept). */
  note?: string;
}

export function rename(nav: Navigation, doc: OpenDocument, pos: Position, newName: string, lockTimeoutMs?: number): RenameResult {
  const at = atCursor(nav, doc, pos);
  if (at === null || at.located === null) throw refused("nothing to rename here");
  const b = at.located.block;
  if (b.type !== "directive" || b.id === undefined) throw refused(`"${b.id ?? ""}" is a section's id; rename_id renames directive ids only`);
  const root = at.root;
  if (root === null || at.located.rel === "") throw refused("renaming writes the document through the patch engine: it must be a file in a git repository");
  const session = nav.session;
  const disk = (rel: string): string | null => session.roots.disk.read(join(root.root, rel));
  const definingText = disk(at.located.rel);
  if (definingText === null) throw refused(`${at.located.rel} is not saved yet: save it first`);
  const others = bookChapters(root, at.located.rel)
    .filter((c) => c !== at.located!.rel)
    .flatMap((c) => {
      const text = disk(c);
      return text === null ? [] : [{ path: c, text }];
    });
  try {
    const plan = planRenameId({ path: at.located.rel, text: definingText }, b.id, newName, others);
    const texts = new Map([[at.located.rel, definingText], ...others.map((o) => [o.path, o.text] as const)]);
    const written = patchFiles(
      session,
      root,
      plan.files.map((f) => ({ rel: f.path, ops: f.ops, planned: texts.get(f.path)! })),
      {
        actor: editorActor(root.root),
        reason: `noma-reconcile lsp: rename ${b.id} → ${newName}`,
        ...(lockTimeoutMs !== undefined ? { lockTimeoutMs } : {}),
      },
    );
    const result: RenameResult = { edit: buffersEdit(session, written) };
    if (plan.keptAlias) {
      const n = plan.unaddressable.length;
      const where = plan.unaddressable.map((u) => `${u.path}:${u.line}`).join(", ");
      result.note =
        `Renamed "${b.id}" to "${newName}"; ${n} ${n === 1 ? "reference" : "references"} no patch op can address (${where}) left as written, so ` +
        `"${b.id}" stays an alias of "${newName}".`;
    }
    return result;
  } catch (e) {
    if (e instanceof RenameRefusedError || e instanceof EditRefusedError) throw refused(e.message);
    throw e;
  }
}
