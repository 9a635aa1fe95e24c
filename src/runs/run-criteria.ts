/**
 * A run's acceptance criteria. With `--spec` and no `--ac`, they are
 * generated: "no unreconciled drift for <spec>" for each spec, "every changed
 * .noma document and transcript valid", and "the test command passes" when
 * `.notarai/config.yaml` names one (`workspace.test`). `--ac ID=TEXT` adds
 * free-text criteria that only a check agent can judge. The kind (and the
 * spec, or the argv) is what the built-in check evaluates; agents see
 * `{id, text}` (norma §7.1).
 */
import type { AcceptanceCriterion } from "./agent-protocol.js";

export type CriterionKind = "drift" | "documents" | "tests" | "custom";

export interface RunCriterion extends AcceptanceCriterion {
  kind: CriterionKind;
  /** drift: the spec (repo-relative). */
  spec?: string;
  /** tests: the command's argv. */
  argv?: string[];
}

export const DOCUMENTS_CRITERION = "every changed .noma document and transcript valid";

export function driftCriterionText(spec: string): string {
  return `no unreconciled drift for ${spec}`;
}

export function generateCriteria(specs: readonly string[], testArgv: readonly string[] | null): RunCriterion[] {
  const out: RunCriterion[] = [];
  let n = 0;
  const id = () => `AC${++n}`;
  for (const spec of specs) out.push({ id: id(), text: driftCriterionText(spec), kind: "drift", spec });
  out.push({ id: id(), text: DOCUMENTS_CRITERION, kind: "documents" });
  if (testArgv !== null && testArgv.length > 0)
    out.push({ id: id(), text: `the test command passes: ${testArgv.join(" ")}`, kind: "tests", argv: [...testArgv] });
  return out;
}

/** Parse `ID=TEXT` (an id of letters, digits, `_`, `-`, `.`). */
export function parseAcArg(arg: string): AcceptanceCriterion | null {
  const m = /^([A-Za-z0-9_.-]+)=(.+)$/s.exec(arg);
  if (m === null) return null;
  const text = m[2]!.trim();
  return text.length > 0 ? { id: m[1]!, text } : null;
}

export function publicCriteria(criteria: readonly RunCriterion[]): AcceptanceCriterion[] {
  return criteria.map((c) => ({ id: c.id, text: c.text }));
}
