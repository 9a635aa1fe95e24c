/**
 * One open `.noma` document as the editor holds it, parsed and validated incrementally: an
 * edit is recorded as the span of text it changed, the parse is brought up to date only when
 * something reads it (reparseEdited re-parses the blocks around the change and reuses the
 * rest), and a validation takes over the facts of the last one (validateNoma's `previous`:
 * only the blocks between the shared head and tail are read again). The results are exactly
 * those of a fresh parse and validation (both are property-tested against them).
 */
import type { NomaDocument } from "../noma/ast.js";
import { parseNoma } from "../noma/parse-noma.js";
import { type EditSpan, reparseEdited } from "../noma/reparse/reparse-edited.js";
import type { Diagnostic } from "../validate/diagnostic.js";
import { type ValidateOptions, validateNoma } from "../validate/validate-noma.js";

export class NomaBuffer {
  private doc: NomaDocument;
  /** What changed since `doc` was parsed: null nothing, undefined unknown (a whole-text change). */
  private span: EditSpan | null | undefined = null;
  private text: string;
  /** The last document validated (its facts are remembered), for the next validation to start from. */
  private validated: NomaDocument | undefined;

  constructor(text: string) {
    this.text = text;
    this.doc = parseNoma(text);
  }

  /**
   * The text became `text`: characters [prefix, old length - suffix) of the previous text
   * were replaced (both undefined: unknown, e.g. the whole text was sent).
   */
  edit(text: string, prefix?: number, suffix?: number): void {
    const old = this.text;
    this.text = text;
    if (prefix === undefined || suffix === undefined || this.span === undefined) {
      this.span = undefined;
      return;
    }
    // Both texts equal the parsed one in their first min(prefixes) and last min(suffixes) characters.
    this.span = this.span === null ? { prefix, suffix } : { prefix: Math.min(this.span.prefix, prefix), suffix: Math.min(this.span.suffix, suffix) };
    // A suffix is counted from the end of the text: it cannot reach past the start of either text.
    const room = Math.min(old.length, text.length, this.doc.source.length);
    if (this.span.prefix + this.span.suffix > room) this.span = { prefix: this.span.prefix, suffix: Math.max(0, room - this.span.prefix) };
  }

  /** The parse of the current text. */
  current(): NomaDocument {
    if (this.span !== null) {
      this.doc = this.span === undefined ? reparseEdited(this.doc, this.text) : reparseEdited(this.doc, this.text, this.span);
      this.span = null;
    }
    return this.doc;
  }

  get source(): string {
    return this.text;
  }

  /** The diagnostics of the current text under `options` (those `check` gives the same text with the same lookups). */
  validate(options: ValidateOptions): Diagnostic[] {
    const doc = this.current();
    const previous = this.validated;
    this.validated = doc;
    return validateNoma(doc, { ...options, cacheBlockFacts: true, ...(previous !== undefined ? { previous } : {}) });
  }
}
