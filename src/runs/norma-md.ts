/**
 * `norma.md` (norma §1): the run's goal, acceptance criteria and budgets, for
 * people. The goal is also read back by recovery when a run directory exists
 * without its database row.
 */
import type { Budgets } from "./agent-protocol.js";
import type { RunCriterion } from "./run-criteria.js";

export function formatNormaMd(run: {
  runId: string;
  createdAt: string;
  goal: string;
  criteria: readonly RunCriterion[];
  budgets: Budgets;
  specs: readonly string[];
}): string {
  const b = run.budgets;
  return [
    `# Run ${run.runId}`,
    "",
    `Started ${run.createdAt}.`,
    "",
    "## Goal",
    "",
    run.goal,
    "",
    "## Acceptance criteria",
    "",
    ...run.criteria.map((c) => `- **${c.id}**: ${c.text}`),
    "",
    ...(run.specs.length > 0 ? ["## Specs", "", ...run.specs.map((s) => `- ${s}`), ""] : []),
    "## Budgets",
    "",
    `- max_iterations: ${b.max_iterations}`,
    ...(b.max_patch_kb !== undefined ? [`- max_patch_kb: ${b.max_patch_kb}`] : []),
    ...(b.max_changed_files !== undefined ? [`- max_changed_files: ${b.max_changed_files}`] : []),
    ...(b.max_risky_files !== undefined ? [`- max_risky_files: ${b.max_risky_files}`] : []),
    "",
  ].join("\n");
}

/** The goal paragraph of a norma.md, or null. */
export function goalOfNormaMd(text: string): string | null {
  const m = /^## Goal\n\n([\s\S]*?)\n\n## /m.exec(text);
  return m !== null ? m[1]!.trim() : null;
}
