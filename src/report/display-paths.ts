/**
 * Reports name files as git-path.ts's `displayPath` shows them: a name holding bytes that are
 * not UTF-8 (or starting with `"`) in git's quoted form, the same in every format (text,
 * JSON, GitHub annotations and summary, SARIF). Applied where results leave the library.
 */
import { displayPath } from "../git/git-path.js";
import type { FileDiagnostics } from "./file-diagnostics.js";

/** `results` with each file named as reports show it (the same objects when no name needs it). */
export function displayResults<T extends FileDiagnostics>(results: readonly T[]): T[] {
  return results.map((r) => {
    const shown = displayPath(r.file);
    return shown === r.file ? r : { ...r, file: shown };
  });
}

/** Paths as reports show them. */
export function displayPaths(paths: readonly string[]): string[] {
  return paths.map(displayPath);
}
