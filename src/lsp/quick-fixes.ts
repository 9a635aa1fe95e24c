/**
 * Quick fixes: every fix `check --fix` knows (document-fixes.ts) is offered as a code action
 * on the diagnostic it fixes. Choosing it runs the server's `noma-reconcile.applyFix` command
 * (workspace/executeCommand): the fix's patch ops go through the patch engine on the file
 * (patch-files.ts: document written, one transcript record per op, as `noma-reconcile patch`
 * writes them), then the editor's buffer receives the resulting text (workspace/applyEdit,
 * for the version the fix was planned on). With unsaved changes the fix is shown disabled
 * with the reason: save first.
 */
import { type CodeAction, CodeActionKind, type Range, type TextDocumentEdit, type WorkspaceEdit } from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { documentFixes, FIXABLE_CODES, type Fix } from "../editing/document-fixes.js";
import { readGitConfig } from "../git/read-ref.js";
import { commonEnds } from "../noma/reparse/reparse-edited.js";
import type { Actor } from "../transcript/transcript-record.js";
import { documentOptions } from "./file-diagnostics.js";
import type { LspSession } from "./lsp-session.js";
import type { OpenDocument } from "./open-document.js";
import type { PatchedFile } from "./patch-files.js";

export const APPLY_FIX_COMMAND = "noma-reconcile.applyFix";

/** What the command carries: the fix as it was offered. */
export interface FixArgument {
  uri: string;
  version: number;
  code: string;
  description: string;
  ops: Record<string, unknown>[];
}

/** Who the records name: the person at the editor (git's user.name, else $USER), as `patch` does. */
export function editorActor(root: string, env: NodeJS.ProcessEnv = process.env): Actor {
  let name: string | null = null;
  try {
    name = readGitConfig(root, "user.name")?.trim() ?? null;
  } catch {
    name = null;
  }
  return { kind: "human", name: name !== null && name.length > 0 ? name : (env["USER"] ?? env["USERNAME"] ?? "unknown") };
}

const overlaps = (a: Range, b: Range): boolean =>
  !(a.end.line < b.start.line || (a.end.line === b.start.line && a.end.character < b.start.character)) &&
  !(b.end.line < a.start.line || (b.end.line === a.start.line && b.end.character < a.start.character));

export class QuickFixes {
  /** Fixes found for a document version, by the index of the diagnostic in what was published. */
  private readonly found = new Map<string, { version: number; fixes: Map<number, Fix | null> }>();

  constructor(private readonly session: LspSession) {}

  codeActions(doc: OpenDocument, range: Range): CodeAction[] {
    const root = this.session.rootOf(doc);
    const published = this.session.lastPublished(doc.uri);
    if (doc.kind !== "document" || root === null || doc.place.rel === undefined || published === undefined || published.version !== doc.version) return [];
    const wanted = published.diagnostics
      .map((_d, i) => i)
      .filter((i) => FIXABLE_CODES.has(published.diagnostics[i]!.code) && overlaps(published.lsp[i]!.range, range));
    if (wanted.length === 0) return [];
    let memo = this.found.get(doc.uri);
    if (memo === undefined || memo.version !== doc.version) this.found.set(doc.uri, (memo = { version: doc.version, fixes: new Map() }));
    const missing = wanted.filter((i) => !memo.fixes.has(i));
    if (missing.length > 0) {
      const fixes = documentFixes(
        doc.text,
        missing.map((i) => published.diagnostics[i]!),
        { validate: documentOptions(root, doc.place.rel) },
      );
      missing.forEach((i, k) => memo.fixes.set(i, fixes.get(k) ?? null));
    }
    const dirty = doc.place.abs !== undefined && this.session.roots.disk.read(doc.place.abs) !== doc.text;
    const out: CodeAction[] = [];
    for (const i of wanted) {
      const fix = memo.fixes.get(i);
      if (fix === null || fix === undefined) continue;
      const code = published.diagnostics[i]!.code;
      const title = `Fix ${code}: ${fix.description}`;
      const arg: FixArgument = { uri: doc.uri, version: doc.version, code, description: fix.description, ops: fix.ops };
      const action: CodeAction = {
        title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [published.lsp[i]!],
        isPreferred: true,
        command: { title, command: APPLY_FIX_COMMAND, arguments: [arg] },
      };
      if (dirty) action.disabled = { reason: "Save the document first: the fix is made by the patch engine on the file and recorded in its transcript" };
      out.push(action);
    }
    return out;
  }
}

/** The smallest edit that turns a buffer's text into `after`. */
export function bufferEdit(td: TextDocument, after: string): TextDocumentEdit {
  const before = td.getText();
  const [p, s] = commonEnds(before, after);
  return {
    textDocument: { uri: td.uri, version: td.version },
    edits: [{ range: { start: td.positionAt(p), end: td.positionAt(before.length - s) }, newText: after.slice(p, after.length - s) }],
  };
}

/** The buffers of the written files that the editor has open, brought to the files' new texts. */
export function buffersEdit(session: LspSession, written: readonly PatchedFile[]): WorkspaceEdit {
  const documentChanges: TextDocumentEdit[] = [];
  for (const f of written) {
    const open = session.documentAt(f.abs);
    if (open !== undefined && open.text === f.before) documentChanges.push(bufferEdit(open.textDocument, f.after));
  }
  return { documentChanges };
}

/** A command argument as a fix, or undefined when it is not one. */
export function fixArgument(value: unknown): FixArgument | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v["uri"] !== "string" || typeof v["version"] !== "number" || typeof v["code"] !== "string" || typeof v["description"] !== "string")
    return undefined;
  if (!Array.isArray(v["ops"]) || !v["ops"].every((op) => op !== null && typeof op === "object" && !Array.isArray(op))) return undefined;
  return v as unknown as FixArgument;
}
