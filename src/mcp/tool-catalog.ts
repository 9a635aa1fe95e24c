/**
 * The MCP tools, in the order `tools/list` gives them: the six reconciliation
 * tools (NotarAI's MCP server), the four Noma tools (Noma Agent Protocol
 * Annex B), the workspace tools — NOA's seven (the NOA agent tool API, under their NOA
 * names), then those of the MCP filesystem server (`@modelcontextprotocol/server-filesystem`,
 * under its names; its read_file and edit_file are NOA's, taking both shapes) and our
 * append_file and search_text — and the two read-only run-loop tools (`noma-reconcile run`).
 * Names, titles, descriptions and annotations only — no zod here, so
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
  "write_file",
  "append_file",
  "create_directory",
  "move_file",
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
  /**
   * The answer is one text block holding the JSON, with no `structuredContent` and so no
   * `outputSchema` in tools/list (MCP requires structured results of a tool that declares one).
   * read_doc only: Annex B puts its body in the text content, and a document's block list sent
   * twice (structured and as text) doubled the answer of a large document (docs/mcp.md).
   */
  textAnswer?: true;
}

const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const RUN: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
const LEDGER = "Every request is recorded in the evidence ledger";

export const TOOL_CATALOG: readonly ToolMeta[] = [
  {
    name: "list_affected_specs",
    title: "List affected specs",
    description:
      "Which specs govern files that changed on this branch: files changed since the merge-base of base_branch and HEAD (committed, staged, " +
      "unstaged, untracked, deleted, both sides of renames), and for each affected spec the changed files that made it affected (matched_files: " +
      'path, artifact category or "spec" for the spec\'s own file, and the glob that matched) with its behaviors, constraints and invariants. Start ' +
      "a reconciliation pass here.",
    annotations: READ,
  },
  {
    name: "get_spec_diff",
    title: "Get a spec's diff",
    description:
      "The unified diff (against the merge-base with base_branch) of the files one spec governs that are not yet reconciled; `skipped` lists " +
      "changed files already reconciled at their current content. Changed governed spec files come whole in `spec_changes`, with the system spec " +
      "beside them; binary files are listed in `binary_changes`, not diffed. bypass_cache diffs every changed governed file without touching the " +
      "cache.",
    annotations: READ,
  },
  {
    name: "get_changed_artifacts",
    title: "Get changed artifacts",
    description:
      "Artifact files governed by a spec whose current content is not reconciled for it (versus the hash cache, not versus a branch), optionally of " +
      "one artifact category (e.g. docs, code).",
    annotations: READ,
  },
  {
    name: "mark_reconciled",
    title: "Mark files reconciled",
    description:
      "Record files as reconciled at their current content (BLAKE3 in the cache), for spec_path only or for every spec that governs each file. Call " +
      "at the end of a reconciliation pass. A directory stands for the governed files under it. Deleted files git knows are skipped (listed in " +
      "`deleted`); ungoverned files are not marked (listed in `not_marked` with the reason); a path that does not exist and git never knew is an " +
      "error and nothing is marked. `updated` counts files recorded.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "clear_cache",
    title: "Clear the reconciliation cache",
    description:
      "Forget every reconciliation (delete the hash cache), so the next get_spec_diff lists every changed governed file. `cleared` is false when " +
      "there was no cache.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "snapshot_state",
    title: "Snapshot reconciliation state",
    description:
      "Write the reconciliation state to .notarai/reconciliation_state.json (commit it: collaborators and CI start from it). Call after a " +
      "successful reconciliation pass. Returns the absolute path, the numbers of file and spec fingerprints, and HEAD.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "read_doc",
    title: "Read a Noma document",
    description:
      "Parse a .noma file and list its blocks in document order (nested children included): type, canonical id, directive name and attributes, " +
      "section title and level, aliases, child count, 1-based inclusive lines, whether it is patchable (has a canonical id) and, for patchable " +
      "blocks, `hash` (pass it as an op's baseHash to make a patch_block conditional on the block being unchanged). `sha256` is the whole document's " +
      "hash (patch_block's base_sha256). Read a document before patching it. The answer is the JSON {sha256, blocks} as one text block (Annex " +
      'B.3; no structuredContent). For a large document: view "outline" (sections and id-carrying blocks: id, type, name, title, level, lines), ' +
      "ids (only those blocks, with what they contain), max_bytes (a budget: the answer stops at a block boundary with truncated, remaining and " +
      "`next`, which you pass back as cursor).",
    annotations: READ,
    textAnswer: true,
  },
  {
    name: "list_ids",
    title: "List a document's ids",
    description:
      "The canonical ids of a .noma file, in document order, and its alias map (alias → canonical id). Patches address blocks by canonical id only: " +
      "resolve an alias here first.",
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
      "Apply a block-level patch to a .noma file: `op` (one op) or `ops` (a list, applied atomically: all or nothing). Ops address blocks by " +
      "canonical id; any op may carry baseHash (from read_doc). One transcript record per attempted op is appended to <file>.patches whatever the " +
      "outcome. A rejected patch is a normal result {ok:false, error, code} with a machine-readable code (target_missing, sha_mismatch, id_conflict, " +
      "invalid_content, …); nothing is written to the document then.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  {
    name: "read_file",
    title: "Read a workspace file",
    description:
      "The UTF-8 contents of a file inside the repository (path relative to the repository root, forward slashes; absolute paths must be inside " +
      "it), with its size and sha256; head or tail keep only the first or last N lines (the filesystem server's read_file shape). Symbolic links are " +
      "followed only when they stay inside the repository; .git/ is never readable. Every request is recorded in the evidence ledger. Failures are " +
      "isError with {success:false, code, message}.",
    annotations: READ,
  },
  {
    name: "list_files",
    title: "List workspace files",
    description:
      "The entries of a directory inside the repository (default: the root): repo-relative path, kind (file, dir, symlink, other) and size; " +
      "recursive lists everything below (symbolic links are listed, not followed; .git is left out), up to max_entries (truncated: true).",
    annotations: READ,
  },
  {
    name: "edit_file",
    title: "Edit a workspace file",
    description:
      "Change a file, in one of two shapes. {path, contents, create_if_missing?} (NOA) replaces its whole contents (create_if_missing: true creates " +
      "it and its directories). {path, edits: [{oldText, newText}], dryRun?} (the MCP filesystem server's) replaces text — each oldText found " +
      "exactly, else line by line ignoring indentation, which is kept — and answers with a git-style diff; dryRun writes nothing. The previous " +
      "version is first archived in archive/YYYY/MM/<path>.tar.zst (member <path>.~N~), then the new one is written atomically; nothing is ever " +
      "deleted. Refused: paths outside the repository, .git/, the ledger, the archive, the allowlist, .notarai/config.yaml, transcripts, and " +
      "existing .noma documents (edit those with patch_block).",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  {
    name: "apply_patch",
    title: "Patch a workspace file by lines",
    description:
      "Replace line ranges of an existing file: hunks [{start_line, end_line, replacement}], 1-indexed inclusive, ordered, non-overlapping " +
      "(end_line = start_line - 1 inserts before start_line); all apply or none does. A replacement without a final line break gets one. The " +
      "previous version is archived first, as with edit_file.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  {
    name: "run_command",
    title: "Run an allowlisted command",
    description:
      "Run a command from the repository root: command is a bare executable name, args its arguments, and command + args must match a record of the " +
      "allowlist (tools/allowed_commands.toml). Never through a shell (metacharacters are plain text); minimal environment (PATH without repository " +
      "directories, plus what the record allows and environment keys it accepts); killed with everything it started after timeout_seconds; output " +
      "capped. A command that exits non-zero is a result with success: false, its exit_code and output.",
    annotations: RUN,
  },
  {
    name: "run_tests",
    title: "Run the project's tests",
    description:
      "Run the test command configured as workspace.test in .notarai/config.yaml (e.g. [npm, test]) the way run_command runs commands; same result " +
      "shape. Not configured: an error naming the setting.",
    annotations: RUN,
  },
  {
    name: "build_workspace",
    title: "Build the project",
    description:
      "Run the build command configured as workspace.build in .notarai/config.yaml (e.g. [npm, run, build]) the way run_command runs commands; same " +
      "result shape. Not configured: an error naming the setting.",
    annotations: RUN,
  },
  {
    name: "read_text_file",
    title: "Read a text file",
    description:
      `A file's UTF-8 text, answered as the text itself (structured: with its path, size, sha256 and line count); head or tail: only the first or ` +
      `last N lines. Not UTF-8 is refused (read_media_file reads any file). ${LEDGER}.`,
    annotations: READ,
  },
  {
    name: "read_media_file",
    title: "Read a media file",
    description:
      `Any file, base64, with its MIME type (by extension): an image or audio content block, or an embedded resource for anything else. At most 16 ` +
      `MiB. ${LEDGER}.`,
    annotations: READ,
  },
  {
    name: "read_multiple_files",
    title: "Read several files",
    description:
      `Several files' text in one request: each as "path:" and its text, separated by ---; a file that cannot be read (missing, outside, not UTF-8) ` +
      `is reported in its place ("path: Error - …", and in files[] with its code) and the others are still read. ${LEDGER}.`,
    annotations: READ,
  },
  {
    name: "list_directory",
    title: "List a directory",
    description:
      `One directory's entries as [FILE] name / [DIR] name lines, sorted by name (structured: name, kind — file, dir, symlink, other — and size). ` +
      `Symbolic links are listed, never followed; .git is left out. ${LEDGER}.`,
    annotations: READ,
  },
  {
    name: "list_directory_with_sizes",
    title: "List a directory with sizes",
    description:
      `One directory's entries with their sizes, sorted by name or (sortBy: size) largest first, then the numbers of files and directories and the ` +
      `files' combined size. ${LEDGER}.`,
    annotations: READ,
  },
  {
    name: "directory_tree",
    title: "Show a directory tree",
    description:
      `A directory's tree as JSON: [{name, type: file|directory, children?}], directories always with children. excludePatterns leave out entries and ` +
      `everything below them (a pattern with a / matches the path from the top, one without a name at any depth); maxDepth stops N levels down ` +
      `(truncated: true on the directories not opened). Symbolic links are never followed; .git is left out. ${LEDGER}.`,
    annotations: READ,
  },
  {
    name: "search_files",
    title: "Find files by name",
    description:
      `The files and directories below path whose path from there matches a glob (*.ts at the top, **/*.ts at any depth; dot files included), as ` +
      `absolute paths, one a line, or "No matches found". excludePatterns as in directory_tree. Use search_text to search contents. ${LEDGER}.`,
    annotations: READ,
  },
  {
    name: "search_text",
    title: "Search file contents",
    description:
      `The lines of the files below path (default: the root) that match a regular expression (JavaScript syntax) or, with literal: true, a text — ` +
      `grep's answer (path:line:text), each match structured with its column and context_lines around it. Searches the files git shows (tracked, and ` +
      `untracked ones .gitignore does not ignore); include / exclude globs narrow them; binary files are skipped; at most max_matches (default ` +
      `200). ${LEDGER}.`,
    annotations: READ,
  },
  {
    name: "get_file_info",
    title: "Get file information",
    description: `A file's or directory's size, created / modified / accessed times, type and permission bits, as key: value lines. ${LEDGER}.`,
    annotations: READ,
  },
  {
    name: "list_allowed_directories",
    title: "List allowed directories",
    description:
      "The directories the workspace tools may use, as absolute paths: the repository, or — when the MCP client gave roots — the parts of it inside " +
      "them. Relative paths are always relative to the repository root.",
    annotations: READ,
  },
  {
    name: "write_file",
    title: "Write a file",
    description:
      `Create a file or replace its whole contents; its directory must exist (create_directory). The version replaced is first archived ` +
      `(archive/YYYY/MM/<path>.tar.zst), then the new one is written atomically. Refused as edit_file refuses (existing .noma documents: use ` +
      `patch_block). ${LEDGER}, its intent before anything is written.`,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "append_file",
    title: "Append to a file",
    description:
      `Add text at the end of a file, creating it when missing (its directory must exist); the file is rewritten atomically, so a crash leaves the ` +
      `old or the new contents. Refused as edit_file refuses. ${LEDGER}, its intent before anything is written.`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  {
    name: "create_directory",
    title: "Create a directory",
    description: `Make a directory and any missing parents; one that exists is fine. ${LEDGER}, its intent before anything is made.`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "move_file",
    title: "Move a file or directory",
    description:
      `Move or rename a file or directory; the destination must not exist (nothing is overwritten) and its directory must. Every file moved is first ` +
      `archived under its old path. Refused: .noma documents and transcripts (they belong together: git mv them), protected paths, and directories ` +
      `holding any. ${LEDGER}, its intent before anything moves.`,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  {
    name: "run_list",
    title: "List reconciliation runs",
    description:
      "The runs of the plan → do → check → act loop (`noma-reconcile run`) recorded in .norma/norma.db, newest first: id, status (running, passed, " +
      "failed, stopped), last verdict, iteration, number of steps, goal and run directory. Read-only.",
    annotations: READ,
  },
  {
    name: "run_status",
    title: "Show a reconciliation run",
    description:
      "One run of the loop in full: its goal, acceptance criteria, specs and budgets, every committed step (role, iteration, status, summary, step " +
      "directory), the timeline of events, and the last check's verdict (verdict.json, with each criterion's pass and evidence) and scorecard path. " +
      "Default: the run you are part of (NORMA_RUN_ID), else the newest. `live` is true while the run's process holds the run lock. Read-only.",
    annotations: READ,
  },
];
