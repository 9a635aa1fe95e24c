/**
 * Spec files as diagnostics: every target spec's own problems (schema chosen
 * by `schema_version`, YAML path, line and column), and `$ref` problems in
 * other specs that point at a target (a staged deletion or rename can break
 * a spec nobody touched). `$ref`s resolve against the same source as the
 * texts (the index for the hook, HEAD for the PR check).
 */
import { buildSpecSet } from "../governance/load-specs.js";
import { refTargetPath } from "../governance/resolve-spec-refs.js";
import type { SpecProblem } from "../governance/spec-problem.js";
import { validateSpecText } from "../governance/validate-spec-text.js";
import type { FileDiagnostics } from "../report/file-diagnostics.js";
import type { Diagnostic } from "../validate/diagnostic.js";

function toDiagnostic(p: SpecProblem): Diagnostic {
  return {
    severity: "error",
    code: `spec-${p.code}`,
    message: `${p.path.length > 0 ? `${p.path}: ` : ""}${p.message}`,
    pos: { line: p.line, column: p.column },
  };
}

/**
 * @param targets spec paths to judge (deleted ones included: they may break $refs)
 * @param allSpecPaths every spec path in the source
 */
export function specDiagnostics(targets: readonly string[], allSpecPaths: readonly string[], read: (path: string) => string | null): FileDiagnostics[] {
  const files = [];
  for (const p of allSpecPaths) {
    const text = read(p);
    if (text !== null) files.push(validateSpecText(p, text));
  }
  const set = buildSpecSet(files);
  const wanted = new Set(targets);
  const out: FileDiagnostics[] = [];
  for (const f of set.files) {
    const problems = wanted.has(f.path)
      ? f.problems
      : f.problems.filter(
          (p) =>
            (p.code === "missing-ref" || p.code === "ref-cycle") && f.refs.some((r) => r.line === p.line && wanted.has(refTargetPath(f.path, r.target) ?? "")),
        );
    if (wanted.has(f.path) || problems.length > 0) out.push({ file: f.path, diagnostics: problems.map(toDiagnostic) });
  }
  return out;
}
