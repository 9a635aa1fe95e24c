/**
 * Check one document's text: parse, validate, and return its diagnostics.
 * Book manifests (`*.noma.yml`) are checked for shape and for chapters that
 * cannot be read, capability sidecars against their schema. Pure: file reads
 * are injected. (`check` itself dispatches by kind in check-files.ts, loading
 * the sidecar checker only when a sidecar is judged.)
 */
import type { FileDiagnostics } from "../report/file-diagnostics.js";
import { checkNomaText, type CheckOptions } from "./check-noma-text.js";
import { checkSidecar } from "./check-sidecar.js";

export { isBookManifest, type CheckOptions } from "./check-noma-text.js";

export function isCapabilitySidecar(file: string): boolean {
  return /\.capabilities\.yml$/i.test(file);
}

export function checkDocument(file: string, text: string, options: CheckOptions = {}): FileDiagnostics {
  if (isCapabilitySidecar(file)) return { file, diagnostics: checkSidecar(text, options) };
  return checkNomaText(file, text, options);
}
