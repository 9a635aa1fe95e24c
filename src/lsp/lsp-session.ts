/**
 * The language server's state: the documents the editor has open (their text as typed), the
 * repositories they belong to, and the diagnostics last published for each. Diagnostics are
 * computed when a document is opened, changed or saved (and when a file it depends on
 * changes on disk), for the latest text only: changes that arrive together are judged once.
 * A change to a chapter or a spec re-judges the other open chapters and specs of its
 * repository (a link or a `$ref` into it may now resolve, or no longer).
 */
import { relative, sep } from "node:path";
import type { Diagnostic as LspDiagnostic, TextDocumentContentChangeEvent } from "vscode-languageserver/node";
import { lineText } from "../noma/parse-noma.js";
import type { Diagnostic } from "../validate/diagnostic.js";
import { nomaDiagnostics, otherDiagnostics, transcriptOnDocument } from "./file-diagnostics.js";
import { linesOf, lspDiagnostic, type LineOf } from "./lsp-diagnostics.js";
import { uriPath } from "./lsp-uri.js";
import { type DocumentPlace, documentKind, OpenDocument } from "./open-document.js";
import { type WorkspaceRoot, WorkspaceRoots } from "./workspace-root.js";

export interface SessionClient {
  publishDiagnostics(uri: string, version: number, diagnostics: LspDiagnostic[]): void;
  /** A line for the client's log (window/logMessage), never stdout. */
  log(message: string): void;
}

/** What was last published for a document: the library's diagnostics (for the quick fixes) at a version. */
export interface Published {
  version: number;
  diagnostics: Diagnostic[];
  /** The same, as published (index for index). */
  lsp: LspDiagnostic[];
}

export class LspSession {
  private readonly docs = new Map<string, OpenDocument>();
  private readonly byPath = new Map<string, OpenDocument>();
  readonly roots: WorkspaceRoots;
  private readonly published = new Map<string, Published>();
  private readonly dirty = new Set<string>();
  private scheduled = false;
  /** Resolves when the diagnostics scheduled so far are published (tests, benchmarks). */
  private idle: Promise<void> = Promise.resolve();

  constructor(readonly client: SessionClient) {
    this.roots = new WorkspaceRoots(
      (abs) => this.byPath.get(abs)?.text,
      (line) => this.client.log(line),
    );
  }

  document(uri: string): OpenDocument | undefined {
    return this.docs.get(uri);
  }

  /** The open document at an absolute path, if any. */
  documentAt(abs: string): OpenDocument | undefined {
    return this.byPath.get(abs);
  }

  openDocuments(): OpenDocument[] {
    return [...this.docs.values()];
  }

  /** The repository of a document (null: outside every repository, or not a file). */
  rootOf(doc: OpenDocument): WorkspaceRoot | null {
    return doc.place.root !== undefined && doc.place.inRepo ? this.roots.rootAt(doc.place.root, true) : null;
  }

  lastPublished(uri: string): Published | undefined {
    return this.published.get(uri);
  }

  /** Where a URI's file lives. */
  place(uri: string): DocumentPlace {
    const abs = uriPath(uri);
    if (abs === undefined) return { inRepo: false };
    const root = this.roots.of(abs);
    if (root === null) return { abs, inRepo: false };
    const rel = relative(root.root, abs).split(sep).join("/");
    if (rel.startsWith("../") || rel === "..") return { abs, inRepo: false };
    return { abs, root: root.root, inRepo: true, rel };
  }

  open(uri: string, languageId: string, version: number, text: string): void {
    const place = this.place(uri);
    const doc = new OpenDocument(uri, languageId, version, text, place, documentKind(place.rel, uri));
    this.docs.set(uri, doc);
    if (place.abs !== undefined) this.byPath.set(place.abs, doc);
    const root = this.rootOf(doc);
    if (root !== null && place.rel !== undefined) root.changed(place.rel);
    this.refreshTranscript(doc);
    // Its text as the editor holds it may not be the file's: what reads it is judged again.
    this.schedule([doc, ...this.dependents(doc)]);
  }

  change(uri: string, changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    const doc = this.docs.get(uri);
    if (doc === undefined) return;
    doc.change(changes, version);
    this.schedule([doc, ...this.dependents(doc)]);
  }

  save(uri: string): void {
    const doc = this.docs.get(uri);
    if (doc === undefined) return;
    this.fileChanged(doc.place);
  }

  close(uri: string): void {
    const doc = this.docs.get(uri);
    if (doc === undefined) return;
    this.docs.delete(uri);
    if (doc.place.abs !== undefined && this.byPath.get(doc.place.abs) === doc) this.byPath.delete(doc.place.abs);
    this.dirty.delete(uri);
    this.published.delete(uri);
    this.client.publishDiagnostics(uri, doc.version, []);
    // Chapters that read it now read the file on disk.
    this.schedule(this.dependents(doc));
  }

  /** A file changed on disk (saved, written by a patch, changed by another program): judge again what depends on it. */
  fileChanged(place: DocumentPlace): void {
    if (place.abs === undefined) return;
    this.roots.disk.forget(place.abs);
    const root = place.root !== undefined ? this.roots.rootAt(place.root, true) : null;
    if (root === null || place.rel === undefined) return;
    root.changed(place.rel);
    const affected = this.openDocuments().filter((d) => d.place.root === place.root);
    for (const d of affected) if (d.kind === "document") this.refreshTranscript(d);
    this.schedule(affected);
  }

  /** The other open documents a change to `doc` can change the diagnostics of. */
  private dependents(doc: OpenDocument): OpenDocument[] {
    if (doc.place.root === undefined) return [];
    const kinds = doc.kind === "document" || doc.kind === "book" ? ["document", "book"] : doc.kind === "spec" ? ["spec"] : [];
    return this.openDocuments().filter((d) => d !== doc && d.place.root === doc.place.root && kinds.includes(d.kind));
  }

  /**
   * The transcript findings shown on a `.noma` document (computed against the file as saved).
   * The document's next judgement waits for them (the caller schedules it), so a save never
   * shows the findings of the transcript before it.
   */
  private refreshTranscript(doc: OpenDocument): void {
    const root = this.rootOf(doc);
    if (doc.kind !== "document" || root === null || doc.place.rel === undefined) return;
    const rel = doc.place.rel;
    doc.transcriptPending = transcriptOnDocument(root, rel).then(
      (found) => {
        doc.transcriptDiagnostics = found;
      },
      (e: unknown) => this.client.log(`transcript of ${rel}: ${(e as Error).message}`),
    );
  }

  private schedule(docs: readonly OpenDocument[]): void {
    for (const d of docs) if (this.docs.get(d.uri) === d) this.dirty.add(d.uri);
    if (this.scheduled || this.dirty.size === 0) return;
    this.scheduled = true;
    this.track(
      new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        this.scheduled = false;
        const uris = [...this.dirty];
        this.dirty.clear();
        for (const uri of uris) {
          const doc = this.docs.get(uri);
          if (doc !== undefined) await this.diagnose(doc);
        }
      }),
    );
  }

  private track(p: Promise<void>): void {
    const next = this.idle.then(() => p).catch((e: unknown) => this.client.log(`internal error: ${(e as Error).stack ?? String(e)}`));
    this.idle = next;
  }

  /** Resolves once every diagnostic scheduled so far is published. */
  async settled(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== this.idle) {
      seen = this.idle;
      await seen;
    }
  }

  private async diagnose(doc: OpenDocument): Promise<void> {
    const version = doc.version;
    const root = this.rootOf(doc);
    let found: Diagnostic[];
    let lineOf: LineOf;
    try {
      if (doc.kind === "document") {
        await doc.transcriptPending;
        found = [...doc.transcriptDiagnostics, ...nomaDiagnostics(doc, root)];
        const parsed = doc.noma().current();
        lineOf = (line) => lineText(parsed, line);
      } else {
        const openSpecs = this.openDocuments().flatMap((d) =>
          d.kind === "spec" && d.place.root === doc.place.root && d.place.rel !== undefined ? [d.place.rel] : [],
        );
        found = await otherDiagnostics(doc, root, openSpecs);
        lineOf = linesOf(doc.text);
      }
    } catch (e) {
      this.client.log(`${doc.place.rel ?? doc.uri}: could not be judged: ${(e as Error).stack ?? String(e)}`);
      return;
    }
    // Changed meanwhile (or closed): a later run judges the newer text.
    if (this.docs.get(doc.uri) !== doc || doc.version !== version) return;
    const lsp = found.map((d) => lspDiagnostic(d, lineOf));
    this.published.set(doc.uri, { version, diagnostics: found, lsp });
    this.client.publishDiagnostics(doc.uri, version, lsp);
  }
}
