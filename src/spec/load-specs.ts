/**
 * Load every spec file of a repository: the `.notarai/**\/*.spec.yaml` files
 * git knows (tracked or untracked, not ignored) that exist, each validated
 * against the schema its `schema_version` names, then `$ref`s resolved across
 * the set. Invalid files are kept (with their problems) so callers can report
 * them and still treat the file as governing itself.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { listSpecPaths } from "./list-spec-paths.js";
import { resolveSpecRefs } from "./resolve-spec-refs.js";
import type { SpecProblem } from "./spec-problem.js";
import { validateSpecText, type SpecFile } from "./validate-spec-text.js";

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
  let text: string;
  try {
    text = readFileSync(join(root, path), "utf8");
  } catch (e) {
    const found = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    return {
      path,
      text: "",
      version: null,
      data: null,
      refs: [],
      problems: [
        { file: path, path: "", line: 1, column: 1, code: "unreadable", expected: "a readable file", found, message: `cannot read the file (${found})` },
      ],
    };
  }
  return validateSpecText(path, text);
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

/** Load and validate every spec file of the repository at `root` (`known`: git's file list, if at hand). */
export function loadSpecs(root: string, known?: Iterable<string>): SpecSet {
  return buildSpecSet(listSpecPaths(root, known).map((p) => validateSpecFile(root, p)));
}
