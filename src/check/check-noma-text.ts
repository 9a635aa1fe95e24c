/**
 * Check the text of a document or a book manifest: parse and validate a document;
 * for a manifest (`*.noma.yml`), its shape and the chapters that cannot be read.
 * Pure: file lookups are injected. (Capability sidecars: check-sidecar.ts.)
 */
import { parseNoma } from "../noma/parse-noma.js";
import { parseBookManifest } from "../noma/parse-book.js";
import type { Diagnostic } from "../validate/diagnostic.js";
import { validateNoma, type ValidateOptions } from "../validate/validate-noma.js";
import type { FileDiagnostics } from "../report/file-diagnostics.js";

export interface CheckOptions extends Omit<ValidateOptions, "datasetSrcExists"> {
  /** Whether `src` (as written in a ::dataset of `file`) can be loaded. */
  datasetSrcExists?: (file: string, src: string) => boolean;
  /** Whether a chapter path (as written in the manifest `file`) can be read. */
  chapterExists?: (file: string, chapter: string) => boolean;
  /** Called with a document's length (UTF-16 code units) just before it is parsed (the CLI tunes V8 for large inputs). */
  beforeParse?: (chars: number) => void;
}

export function isBookManifest(file: string): boolean {
  return /\.noma\.ya?ml$/i.test(file);
}

/** Diagnostics of a document or (by its name) a book manifest. */
export function checkNomaText(file: string, text: string, options: CheckOptions = {}): FileDiagnostics {
  if (isBookManifest(file)) return { file, diagnostics: checkBookManifest(file, text, options) };
  const { datasetSrcExists, chapterExists: _unused, beforeParse, ...rest } = options;
  const validateOptions: ValidateOptions = rest;
  if (datasetSrcExists !== undefined) validateOptions.datasetSrcExists = (src) => datasetSrcExists(file, src);
  beforeParse?.(text.length);
  const doc = parseNoma(text);
  return { file, diagnostics: validateNoma(doc, validateOptions) };
}

function checkBookManifest(file: string, text: string, options: CheckOptions): Diagnostic[] {
  const manifest = parseBookManifest(text);
  const out: Diagnostic[] = manifest.errors.map((e) => {
    const d: Diagnostic = { severity: "error", code: "book-manifest-invalid", message: e.message };
    if (e.line !== undefined) d.pos = { line: e.line, column: 1 };
    return d;
  });
  if (options.chapterExists !== undefined) {
    const lines = text.split(/\r\n|\r|\n/);
    for (const chapter of manifest.files) {
      if (options.chapterExists(file, chapter)) continue;
      const at = lines.findIndex((l) => l.includes(chapter));
      const d: Diagnostic = {
        severity: "error",
        code: "book-chapter-missing",
        message: `Chapter "${chapter}" does not exist (paths are relative to the manifest).`,
      };
      if (at !== -1) d.pos = { line: at + 1, column: 1 };
      out.push(d);
    }
  }
  return out.filter((d) => !(options.ignoreRules ?? []).includes(d.code));
}
