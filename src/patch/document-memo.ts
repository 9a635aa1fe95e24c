/**
 * The last document states the patch engine produced, by text: a patch on the
 * text an earlier patch produced (an agent's next edit, in a long-lived
 * process such as the MCP server) starts from that state's parse and sha256
 * instead of computing them again.
 *
 * Entries are taken out on use: the engine re-parses incrementally, which
 * consumes the parse it starts from, so a parse is never handed out twice.
 * A parse is a pure function of the text, and the lookup is by the whole text
 * (string equality), so a hit is always exactly the state a fresh parse gives.
 * Bounded: a few entries and a total size, least recently stored first out.
 */
import type { NomaDocument } from "../noma/ast.js";
import type { Diagnostic } from "../validate/diagnostic.js";
import type { ValidateOptions } from "../validate/validate-noma.js";
import type { ResumableSha256 } from "./resumable-sha256.js";

export interface DocumentState {
  doc: NomaDocument;
  /** sha256 of the text's UTF-8 bytes (`.hex`), resumable by a later text. */
  hash: ResumableSha256;
  /** The state's diagnostics, for validations with this `validationCacheKey`. */
  validation?: { key: string; diagnostics: readonly Diagnostic[] };
  /** The validation options of the patch that produced the state (see preparePatchMemo). */
  validateOptions?: ValidateOptions;
}

export class DocumentMemo {
  private readonly entries = new Map<string, DocumentState>();
  private chars = 0;

  constructor(
    private readonly maxEntries = 4,
    private readonly maxChars = 8 * 1024 * 1024,
  ) {}

  /** Remove and return the state remembered for exactly `text`. */
  take(text: string): DocumentState | undefined {
    const hit = this.entries.get(text);
    if (hit === undefined) return undefined;
    this.entries.delete(text);
    this.chars -= text.length;
    return hit;
  }

  /** Remember the state of `text` (its parse must not be used elsewhere afterwards). */
  put(text: string, state: DocumentState): void {
    if (text.length > this.maxChars) return;
    this.take(text);
    this.entries.set(text, state);
    this.chars += text.length;
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.take(key);
    }
  }

  /** The remembered states, least recently stored first (left in place). */
  states(): IterableIterator<DocumentState> {
    return this.entries.values();
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }
}
