/**
 * The MCP server as the tool server of one run step (`noma-reconcile mcp --step
 * <run_id>/<NNN-role>`, what the run loop gives its agents): the tools that step's
 * role may use, and the step the workspace tools' ledger lines are attributed to.
 *
 * Role policy (norma §7.1, §8: plan and check only read; do executes work, act
 * proposes changes):
 * - plan, check: the read-only tools — reconciliation reads, Noma document reads,
 *   the workspace tools that read (`read_file`, `list_files`, `read_text_file`,
 *   `search_text`, …), `run_list`, `run_status`;
 * - do, act: those, plus the workspace tools that change the work tree or run
 *   commands — `edit_file`, `apply_patch`, `run_command`, `run_tests`,
 *   `build_workspace`, `write_file`, `append_file`, `create_directory`, `move_file`
 *   (contained, archived, allowlisted, in the evidence ledger).
 * No agent gets `mark_reconciled`, `clear_cache`, `snapshot_state` or
 * `patch_block`: the loop marks on PASS, and .noma edits go through the act step's
 * `patch.noma.json`, which the loop applies and validates.
 *
 * The policy names the tools as strings, in the MCP catalog's order; the MCP server
 * serves this subset (a test holds the names and the order against its catalog, and the
 * read-only list against the catalog's readOnlyHint). Pure: no I/O, no imports.
 */

export const AGENT_ROLES = ["plan", "do", "check", "act"] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];

/** The tools every agent may use: those that only read (the catalog's readOnlyHint), in catalog order. */
export const READ_TOOLS: readonly string[] = [
  "list_affected_specs",
  "get_spec_diff",
  "get_changed_artifacts",
  "read_doc",
  "list_ids",
  "validate_doc",
  "read_file",
  "list_files",
  "read_text_file",
  "read_media_file",
  "read_multiple_files",
  "list_directory",
  "list_directory_with_sizes",
  "directory_tree",
  "search_files",
  "search_text",
  "get_file_info",
  "list_allowed_directories",
  "run_list",
  "run_status",
];

/** The workspace tools a do or act agent may use besides the read-only ones, in catalog order. */
export const WORK_TOOLS: readonly string[] = [
  "edit_file",
  "apply_patch",
  "run_command",
  "run_tests",
  "build_workspace",
  "write_file",
  "append_file",
  "create_directory",
  "move_file",
];

/** Every tool some agent may use, in the catalog's order. */
const ORDER: readonly string[] = [
  ...READ_TOOLS.slice(0, 8),
  ...WORK_TOOLS.slice(0, 5),
  ...READ_TOOLS.slice(8, 18),
  ...WORK_TOOLS.slice(5),
  ...READ_TOOLS.slice(18),
];

export interface AgentStep {
  runId: string;
  index: number;
  role: AgentRole;
}

/** The tools an agent of `role` may call, in `tools/list` order. */
export function roleTools(role: AgentRole): string[] {
  const work = role === "do" || role === "act";
  return ORDER.filter((t) => READ_TOOLS.includes(t) || (work && WORK_TOOLS.includes(t)));
}

/** `--step` for the run step `index` (role `role`) of `runId`. */
export function formatAgentStep(s: AgentStep): string {
  return `${s.runId}/${String(s.index).padStart(3, "0")}-${s.role}`;
}

/** `20260105-100000-ab12cd/004-act` → the step; anything else → a message saying what was expected. */
export function parseAgentStep(text: string): { ok: true; step: AgentStep } | { ok: false; problem: string } {
  const m = /^(\d{8}-\d{6}-[0-9a-f]{6})\/(\d{3,})-(plan|do|check|act)$/.exec(text);
  const index = m !== null ? Number(m[2]) : NaN;
  if (m === null || !Number.isSafeInteger(index) || index < 1) {
    return {
      ok: false,
      problem:
        `--step: expected <run_id>/<NNN-role> (e.g. 20260105-100000-ab12cd/004-act, role plan, do, check or act), ` +
        `found ${JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)}`,
    };
  }
  return { ok: true, step: { runId: m[1]!, index, role: m[3] as AgentRole } };
}
