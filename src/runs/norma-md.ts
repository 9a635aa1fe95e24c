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
    ...(b.max_stalled_iterations !== undefined ? [`- max_stalled_iterations: ${b.max_stalled_iterations}`] : []),
    "",
  ].join("\n");
}

/** The goal paragraph of a norma.md, or null. */
export function goalOfNormaMd(text: string): string | null {
  const m = /^## Goal\n\n([\s\S]*?)\n\n## /m.exec(text);
  return m !== null ? m[1]!.trim() : null;
}

/** The items of a `## Heading` list of a norma.md (`- text`), or null when there is no such section. */
function listOf(text: string, heading: string): string[] | null {
  const m = new RegExp(`^## ${heading}\\n\\n((?:- .*\\n?)*)`, "m").exec(text);
  if (m === null) return null;
  return m[1]!
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2));
}

/** The acceptance criteria (`- **AC1**: text`) and specs a norma.md lists. */
export function setupOfNormaMd(text: string): { criteria: Array<{ id: string; text: string }>; specs: string[] } {
  const criteria: Array<{ id: string; text: string }> = [];
  for (const item of listOf(text, "Acceptance criteria") ?? []) {
    const m = /^\*\*(.+?)\*\*: (.*)$/.exec(item);
    if (m !== null) criteria.push({ id: m[1]!, text: m[2]! });
  }
  return { criteria, specs: listOf(text, "Specs") ?? [] };
}
