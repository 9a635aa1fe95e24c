/**
 * Load every spec file of a repository: the `.notarai/**\/*.spec.yaml` files
 * git knows (tracked or untracked, not ignored) that exist, each validated
 * against the schema its `schema_version` names, then `$ref`s resolved across
 * the set. Invalid files are kept (with their problems) so callers can report
 * them and still treat the file as governing itself.
 */
import { join } from "node:path";
import { FileTooLargeError, FileUnreadableError, readRegularFile } from "../fsx/read-regular-file.js";
import { maxSpecBytes } from "../fsx/size-limits.js";
import { decodeText, NOT_UTF8_TEXT, NotUtf8TextError } from "../fsx/utf8-text.js";
import { listSpecPaths } from "./list-spec-paths.js";
import { resolveSpecRefs } from "./resolve-spec-refs.js";
import type { SpecProblem } from "./spec-problem.js";
import { tooLargeSpec, unparsedSpec, validateSpecText, type SpecFile } from "./validate-spec-text.js";

export { listSpecPaths };

/** The preferred location of the system spec. */
export const SYSTEM_SPEC_PATH = ".notarai/system.spec.yaml";

export interface SpecSet {
  /** Every spec file, sorted by path (valid or not). */
  files: SpecFile[];
  byPath: Map<string, SpecFile>;
  /** The system spec: the one with a `subsystems` key (`.notarai/system.spec.yaml` preferred). */
  system: SpecFile | null;
  /** Every problem of every file, in file order. */
  problems: SpecProblem[];
}

/** Read and validate one spec file (problems only about the file itself; refs are resolved by `buildSpecSet`). */
export function validateSpecFile(root: string, path: string): SpecFile {
  const cap = maxSpecBytes();
  let text: string;
  try {
    // Only a regular file (a FIFO is refused, never opened blocking), at most the cap, UTF-8 text.
    text = decodeText(readRegularFile(join(root, path), path, { maxBytes: cap }), path);
  } catch (e) {
    if (e instanceof FileTooLargeError) return tooLargeSpec(path, e.size, cap);
    const unreadable = e instanceof FileUnreadableError || e instanceof NotUtf8TextError;
    if (!unreadable) throw e;
    const found = e instanceof FileUnreadableError ? e.why : NOT_UTF8_TEXT;
    const at = e instanceof NotUtf8TextError ? e.position : { line: 1, column: 1 };
    return unparsedSpec(path, { ...at, code: "unreadable", expected: "a readable file of UTF-8 text", found, message: e.reason });
  }
  return validateSpecText(path, text, cap);
}

/** Pure: assemble validated files into a set (resolving $refs, choosing the system spec). */
export function buildSpecSet(files: readonly SpecFile[]): SpecSet {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const refProblems = resolveSpecRefs(sorted);
  for (const f of sorted) {
    const extra = refProblems.get(f.path);
    if (extra !== undefined) f.problems = [...f.problems, ...extra].sort((a, b) => a.line - b.line || a.column - b.column);
  }
  const systems = sorted.filter((f) => f.data !== null && f.data.subsystems !== undefined);
  const system = systems.find((f) => f.path === SYSTEM_SPEC_PATH) ?? systems[0] ?? null;
  return { files: sorted, byPath: new Map(sorted.map((f) => [f.path, f])), system, problems: sorted.flatMap((f) => f.problems) };
}

/**
 * Validate spec files already read (path → text, as `validateSpecFile` reads them: UTF-8 text under the cap):
 * the set `loadSpecs` gives for those files, without reading them again.
 */
export function specSetOfTexts(texts: ReadonlyMap<string, string>): SpecSet {
  const cap = maxSpecBytes();
  return buildSpecSet([...texts].map(([path, text]) => validateSpecText(path, text, cap)));
}

/** Load and validate every spec file of the repository at `root` (`known`: git's file list, if at hand). */
export function loadSpecs(root: string, known?: Iterable<string>): SpecSet {
  return buildSpecSet(listSpecPaths(root, known).map((p) => validateSpecFile(root, p)));
}
