/**
 * The MCP tools, in the order `tools/list` gives them: the six reconciliation
 * tools (NotarAI's MCP server), the four Noma tools (Noma Agent Protocol
 * Annex B), the seven workspace tools (the NOA agent tool API, under their NOA
 * names: none clashes with ours) and the two read-only run-loop tools (`noma-reconcile run`). Names, titles, descriptions and annotations only — no zod here, so
 * the server starts without loading any schema; the input/output schemas are
 * in `tool-schemas.ts`, the handlers in `tools/`.
 */
export const TOOL_NAMES = [
  "list_affected_specs",
  "get_spec_diff",
  "get_changed_artifacts",
  "mark_reconciled",
  "clear_cache",
  "snapshot_state",
  "read_doc",
  "list_ids",
  "validate_doc",
  "patch_block",
  "read_file",
  "list_files",
  "edit_file",
  "apply_patch",
  "run_command",
  "run_tests",
  "build_workspace",
  "run_list",
  "run_status",
] as const;

export type ToolName = (typeof TOOL_NAMES)[number];

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolMeta {
  name: ToolName;
  title: string;
  description: string;
  annotations: ToolAnnotations;
}

const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const RUN: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

export const TOOL_CATALOG: readonly ToolMeta[] = [
  {
    name: "list_affected_specs",
    title: "List affected specs",
    description:
      'Which specs govern files that changed on this branch: files changed since the merge-base of base_branch and HEAD (committed, staged, unstaged, untracked, deleted, both sides of renames), and for each affected spec the changed files that made it affected (matched_files: path, artifact category or "spec" for the spec\'s own file, and the glob that matched) with its behaviors, constraints and invariants. Start a reconciliation pass here.',
    annotations: READ,
  },
  {
    name: "get_spec_diff",
    title: "Get a spec's diff",
    description:
      "The unified diff (against the merge-base with base_branch) of the files one spec governs that are not yet reconciled; `skipped` lists changed files already reconciled at their current content. Changed governed spec files come whole in `spec_changes`, with the system spec beside them; binary files are listed in `binary_changes`, not diffed. bypass_cache diffs every changed governed file without touching the cache.",
    annotations: READ,
  },
  {
    name: "get_changed_artifacts",
    title: "Get changed artifacts",
    description:
      "Artifact files governed by a spec whose current content is not reconciled for it (versus the hash cache, not versus a branch), optionally of one artifact category (e.g. docs, code).",
    annotations: READ,
  },
  {
    name: "mark_reconciled",
    title: "Mark files reconciled",
    description:
      "Record files as reconciled at their current content (BLAKE3 in the cache), for spec_path only or for every spec that governs each file. Call at the end of a reconciliation pass. A directory stands for the governed files under it. Deleted files git knows are skipped (listed in `deleted`); ungoverned files are not marked (listed in `not_marked` with the reason); a path that does not exist and git never knew is an error and nothing is marked. `updated` counts files recorded.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "clear_cache",
    title: "Clear the reconciliation cache",
    description:
      "Forget every reconciliation (delete the hash cache), so the next get_spec_diff lists every changed governed file. `cleared` is false when there was no cache.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "snapshot_state",
    title: "Snapshot reconciliation state",
    description:
      "Write the reconciliation state to .notarai/reconciliation_state.json (commit it: collaborators and CI start from it). Call after a successful reconciliation pass. Returns the absolute path, the numbers of file and spec fingerprints, and HEAD.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "read_doc",
    title: "Read a Noma document",
    description:
      "Parse a .noma file and list its blocks in document order (nested children included): type, canonical id, directive name and attributes, section title and level, aliases, child count, 1-based inclusive lines, whether it is patchable (has a canonical id) and, for patchable blocks, `hash` (pass it as an op's baseHash to make a patch_block conditional on the block being unchanged). `sha256` is the whole document's hash (patch_block's base_sha256). Read a document before patching it.",
    annotations: READ,
  },
  {
    name: "list_ids",
    title: "List a document's ids",
    description:
      "The canonical ids of a .noma file, in document order, and its alias map (alias → canonical id). Patches address blocks by canonical id only: resolve an alias here first.",
    annotations: READ,
  },
  {
    name: "validate_doc",
    title: "Validate a Noma document",
    description:
      "Run the Noma validator on a .noma file (profile from its frontmatter). `ok` is true when no diagnostic has severity error; inspect warnings too.",
    annotations: READ,
  },
  {
    name: "patch_block",
    title: "Patch a Noma document",
    description:
      "Apply a block-level patch to a .noma file: `op` (one op) or `ops` (a list, applied atomically: all or nothing). Ops address blocks by canonical id; any op may carry baseHash (from read_doc). One transcript record per attempted op is appended to <file>.patches whatever the outcome. A rejected patch is a normal result {ok:false, error, code} with a machine-readable code (target_missing, sha_mismatch, id_conflict, invalid_content, …); nothing is written to the document then.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  {
    name: "read_file",
    title: "Read a workspace file",
    description:
      "The UTF-8 contents of a file inside the repository (path relative to the repository root, forward slashes; absolute paths must be inside it), with its size and sha256. Symbolic links are followed only when they stay inside the repository; .git/ is never readable. Every request is recorded in the evidence ledger. Failures are isError with {success:false, code, message}.",
    annotations: READ,
  },
  {
    name: "list_files",
    title: "List workspace files",
    description:
      "The entries of a directory inside the repository (default: the root): repo-relative path, kind (file, dir, symlink, other) and size; recursive lists everything below (symbolic links are listed, not followed; .git is left out), up to max_entries (truncated: true).",
    annotations: READ,
  },
  {
    name: "edit_file",
    title: "Write a workspace file",
    description:
      "Replace a file's whole contents (create_if_missing: true creates it and its directories). The previous version is first archived in archive/YYYY/MM/<path>.tar.zst (member <path>.~N~), then the new one is written atomically; nothing is ever deleted. Refused: paths outside the repository, .git/, the ledger, the archive, the allowlist, .notarai/config.yaml, transcripts, and existing .noma documents (edit those with patch_block).",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "apply_patch",
    title: "Patch a workspace file by lines",
    description:
      "Replace line ranges of an existing file: hunks [{start_line, end_line, replacement}], 1-indexed inclusive, ordered, non-overlapping (end_line = start_line - 1 inserts before start_line); all apply or none does. A replacement without a final line break gets one. The previous version is archived first, as with edit_file.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  {
    name: "run_command",
    title: "Run an allowlisted command",
    description:
      "Run a command from the repository root: command is a bare executable name, args its arguments, and command + args must match a record of the allowlist (tools/allowed_commands.toml). Never through a shell (metacharacters are plain text); minimal environment (PATH without repository directories, plus what the record allows and environment keys it accepts); killed with everything it started after timeout_seconds; output capped. A command that exits non-zero is a result with success: false, its exit_code and output.",
    annotations: RUN,
  },
  {
    name: "run_tests",
    title: "Run the project's tests",
    description:
      "Run the test command configured as workspace.test in .notarai/config.yaml (e.g. [npm, test]) the way run_command runs commands; same result shape. Not configured: an error naming the setting.",
    annotations: RUN,
  },
  {
    name: "build_workspace",
    title: "Build the project",
    description:
      "Run the build command configured as workspace.build in .notarai/config.yaml (e.g. [npm, run, build]) the way run_command runs commands; same result shape. Not configured: an error naming the setting.",
    annotations: RUN,
  },
  {
    name: "run_list",
    title: "List reconciliation runs",
    description:
      "The runs of the plan → do → check → act loop (`noma-reconcile run`) recorded in .norma/norma.db, newest first: id, status (running, passed, failed, stopped), last verdict, iteration, number of steps, goal and run directory. Read-only.",
    annotations: READ,
  },
  {
    name: "run_status",
    title: "Show a reconciliation run",
    description:
      "One run of the loop in full: its goal, acceptance criteria, specs and budgets, every committed step (role, iteration, status, summary, step directory), the timeline of events, and the last check's verdict (verdict.json, with each criterion's pass and evidence) and scorecard path. Default: the run you are part of (NORMA_RUN_ID), else the newest. `live` is true while the run's process holds the run lock. Read-only.",
    annotations: READ,
  },
];
