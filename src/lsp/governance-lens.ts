/**
 * Governance in the editor: on any file a spec governs (any language), a code lens on its
 * first line per governing spec — the spec, the artifact category and the glob that matched
 * (`governs`), and whether the file as saved is what was last marked reconciled for that spec
 * (`changed`) — and the same as a hover on the first line, for editors without code lenses.
 * The answer is remembered while the file, the hash cache and the snapshot are unchanged
 * (their sizes and modification times), and the specs are (a change to `.notarai/` reloads
 * them). The spec schemas, sql.js and BLAKE3 load with the first governed file.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { type CodeLens, type Hover, MarkupKind } from "vscode-languageserver/node";
import type { FileReconciliation, SpecReconciliation } from "../reconcile/file-reconciliation.js";
import type { OpenDocument } from "./open-document.js";
import type { WorkspaceRoot } from "./workspace-root.js";

function signature(abs: string): string {
  try {
    const st = statSync(abs);
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return "-";
  }
}

/** One governing spec, in words. */
export function governanceLine(s: SpecReconciliation): string {
  const state = s.reconciled ? "reconciled" : s.markedAt === null ? "never marked reconciled" : "unreconciled since the last mark";
  return `Governed by ${s.spec_path} (${s.category}, via ${s.glob}) · ${state}`;
}

export class GovernanceLens {
  private readonly memo = new Map<string, { key: string; answer: FileReconciliation }>();
  private readonly contexts = new WeakMap<object, number>();
  private serial = 0;

  /** The governance of an open file (null: not in a repository). */
  async of(root: WorkspaceRoot | null, doc: OpenDocument): Promise<FileReconciliation | null> {
    const rel = doc.place.rel;
    if (root === null || rel === undefined) return null;
    const ctx = await root.specContext();
    const [{ fileReconciliation }, { CACHE_DB_PATH }, { SNAPSHOT_PATH }] = await Promise.all([
      import("../reconcile/file-reconciliation.js"),
      import("../cache/cache-db-path.js"),
      import("../governance/governance.js"),
    ]);
    let ctxSerial = this.contexts.get(ctx);
    if (ctxSerial === undefined) this.contexts.set(ctx, (ctxSerial = ++this.serial));
    const key = [ctxSerial, signature(join(root.root, rel)), signature(join(root.root, CACHE_DB_PATH)), signature(join(root.root, SNAPSHOT_PATH))].join(" ");
    const hit = this.memo.get(join(root.root, rel));
    if (hit !== undefined && hit.key === key) return hit.answer;
    const answer = await fileReconciliation(ctx, rel);
    this.memo.set(join(root.root, rel), { key, answer });
    return answer;
  }

  async codeLenses(root: WorkspaceRoot | null, doc: OpenDocument): Promise<CodeLens[]> {
    const answer = await this.of(root, doc);
    if (answer === null) return [];
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return answer.specs.map((s) => ({ range, command: { title: governanceLine(s), command: "" } }));
  }

  async hover(root: WorkspaceRoot | null, doc: OpenDocument): Promise<Hover | null> {
    const answer = await this.of(root, doc);
    if (answer === null) return null;
    const lines =
      answer.specs.length > 0
        ? answer.specs.map((s) => `- ${governanceLine(s)}`)
        : [`Not governed by any spec${answer.state === "ignored" ? " (git ignores it)" : ""}.`];
    return { contents: { kind: MarkupKind.Markdown, value: [`**${answer.path}**`, "", ...lines].join("\n") } };
  }
}
