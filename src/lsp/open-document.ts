/**
 * A document the editor has open: its text as the editor holds it (every `didChange` applied
 * in order), what kind of file it is (checked-path.ts: a `.noma` document, a book manifest, a
 * transcript, a spec, the configuration) and where it lives. A `.noma` document's parse is
 * kept up to date incrementally (noma-buffer.ts): each change is recorded as the span it
 * replaced.
 */
import { TextDocument } from "vscode-languageserver-textdocument";
import type { TextDocumentContentChangeEvent } from "vscode-languageserver-protocol";
import { type CheckedKind, checkedPathKind } from "../layout/checked-path.js";
import { NomaBuffer } from "./noma-buffer.js";

/** `.norma/config.json`: the run loop's configuration, judged like `.notarai/config.yaml`. */
export const RUN_CONFIG_PATH = ".norma/config.json";

export type DocumentKind = CheckedKind | "run-config" | "other";

export interface DocumentPlace {
  /** Absolute path (file: URIs only). */
  abs?: string;
  /** The repository (or, outside one, the directory) the file belongs to. */
  root?: string;
  inRepo: boolean;
  /** Path relative to `root` (POSIX), when inside it. */
  rel?: string;
}

export function documentKind(rel: string | undefined, uri: string): DocumentKind {
  const name = rel ?? uri.slice(uri.lastIndexOf("/") + 1);
  if (rel === RUN_CONFIG_PATH) return "run-config";
  return checkedPathKind(name) ?? "other";
}

export class OpenDocument {
  private td: TextDocument;
  /** The incremental parse of a `.noma` document (made on first use). */
  private buffer: NomaBuffer | undefined;
  /** Diagnostics of the document's transcript shown on it, computed against the file on disk (open and save). */
  transcriptDiagnostics: import("../validate/diagnostic.js").Diagnostic[] = [];
  /** Set while they are being computed (its judgement waits for them). */
  transcriptPending: Promise<void> | undefined;

  constructor(
    readonly uri: string,
    languageId: string,
    version: number,
    text: string,
    readonly place: DocumentPlace,
    readonly kind: DocumentKind,
  ) {
    this.td = TextDocument.create(uri, languageId, version, text);
  }

  get version(): number {
    return this.td.version;
  }

  get text(): string {
    return this.td.getText();
  }

  get textDocument(): TextDocument {
    return this.td;
  }

  /** Apply the editor's changes, in order. */
  change(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    for (const c of changes) {
      if ("range" in c) {
        const before = this.td.getText().length;
        const prefix = this.td.offsetAt(c.range.start);
        const suffix = before - this.td.offsetAt(c.range.end);
        this.td = TextDocument.update(this.td, [c], version);
        this.buffer?.edit(this.td.getText(), prefix, suffix);
      } else {
        this.td = TextDocument.update(this.td, [c], version);
        this.buffer?.edit(this.td.getText());
      }
    }
  }

  /** The incremental parse (a `.noma` document only). */
  noma(): NomaBuffer {
    this.buffer ??= new NomaBuffer(this.td.getText());
    return this.buffer;
  }
}
