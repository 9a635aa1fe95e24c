/**
 * `$ref` resolution across a set of spec files (pure): every target, taken
 * relative to the referring spec's directory, must be one of the spec files;
 * a missing target and every cycle are problems, reported at the `$ref` line.
 */
import { posix } from "node:path";
import type { SpecProblem } from "./spec-problem.js";
import type { SpecFile, SpecRef } from "./validate-spec-text.js";

/** The repository-relative path a `$ref` names, or null when it leaves the repository. */
export function refTargetPath(fromSpec: string, target: string): string | null {
  if (target.startsWith("/")) return null;
  const joined = posix.normalize(posix.join(posix.dirname(fromSpec), target));
  if (joined === ".." || joined.startsWith("../")) return null;
  return joined;
}

function refProblem(file: string, ref: SpecRef, code: "missing-ref" | "ref-cycle", expected: string, found: string, message: string): SpecProblem {
  return { file, path: `${ref.field}[${ref.index}].$ref`, line: ref.line, column: ref.column, code, expected, found, message };
}

/** Problems of the `$ref`s of `files` (missing targets, cycles), keyed by the referring file. */
export function resolveSpecRefs(files: readonly SpecFile[]): Map<string, SpecProblem[]> {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const out = new Map<string, SpecProblem[]>();
  const add = (p: SpecProblem): void => {
    const list = out.get(p.file) ?? [];
    list.push(p);
    out.set(p.file, list);
  };
  const edges = new Map<string, Array<{ to: string; ref: SpecRef }>>();
  for (const f of files) {
    const list: Array<{ to: string; ref: SpecRef }> = [];
    for (const ref of f.refs) {
      const to = refTargetPath(f.path, ref.target);
      if (to === null) {
        add(
          refProblem(
            f.path,
            ref,
            "missing-ref",
            "a spec file inside the repository",
            `"${ref.target}" (outside the repository)`,
            `$ref "${ref.target}" points outside the repository`,
          ),
        );
      } else if (!byPath.has(to)) {
        add(
          refProblem(
            f.path,
            ref,
            "missing-ref",
            "an existing .spec.yaml file",
            `"${ref.target}" (${to}: no such spec file)`,
            `$ref "${ref.target}" names no spec file (${to} does not exist or is not a .notarai/**/*.spec.yaml file)`,
          ),
        );
      } else {
        list.push({ to, ref });
      }
    }
    edges.set(f.path, list);
  }
  // Depth-first search; a back edge closes a cycle, reported once at that $ref.
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 1);
    stack.push(node);
    for (const { to, ref } of edges.get(node) ?? []) {
      const s = state.get(to);
      if (s === 1) {
        const cycle = [...stack.slice(stack.indexOf(to)), to];
        add(refProblem(node, ref, "ref-cycle", "$refs without cycles", cycle.join(" → "), `$ref cycle: ${cycle.join(" → ")}`));
      } else if (s === undefined) {
        visit(to);
      }
    }
    stack.pop();
    state.set(node, 2);
  };
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) if (!state.has(f.path)) visit(f.path);
  return out;
}
