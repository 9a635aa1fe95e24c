/**
 * The JSON Schema of every `--format json` output (`noma-reconcile schema output/<name>`):
 * the envelope of src/report/json-envelope.ts around each command's `summary` and
 * `result`. Written in zod so the tests can validate real outputs with the same schema
 * the command prints; only the `schema` command (and the tests) load this module.
 *
 * Where a result is a NotarAI tool's answer (affected, diff, changed, cache clear, state
 * snapshot), its schema is that tool's MCP output schema. Payloads that name many nested
 * fields are open objects: the fields listed are required and typed, others may be added
 * (the envelope itself is closed).
 */
import * as z from "zod/mini";
import { TOOL_SCHEMAS } from "../mcp/tool-schemas.js";
import { OUTPUT_NAMES, outputSchemaId, type OutputName } from "../report/json-envelope.js";
import { TOOL_NAME, TOOL_VERSION } from "../version.js";

const str = z.string();
const num = z.number();
const bool = z.boolean();
const strs = z.array(z.string());
const nullable = <T extends z.ZodMiniType>(t: T) => z.nullable(t);
const open = (shape: Record<string, z.ZodMiniType>) => z.looseObject(shape);
const closed = (shape: Record<string, z.ZodMiniType>) => z.strictObject(shape);

const severity = z.enum(["info", "warning", "error"]);
const diagnostic = open({ severity, code: str, message: str, pos: z.optional(open({ line: num, column: num })) });
const fileDiagnostics = open({ file: str, diagnostics: z.array(diagnostic) });
const counts = open({ files: num, errors: num, warnings: num, infos: num });
const finding = open({ code: str, message: str });
const base = closed({ ref: str, source: str, reason: str });
const markedForSpec = open({ spec_path: str, files: strs });
const snapshot = nullable(open({ state_path: str, files: num, specs: num, git_hash: str }));
const noSummary = closed({});
const applyResult = closed({
  run_id: str,
  outcome: z.enum(["applied", "already-applied", "nothing-to-apply", "refused"]),
  message: str,
  branch: nullable(str),
  commit: nullable(str),
  onto: nullable(str),
  how: nullable(z.enum(["fast-forward", "cherry-pick"])),
  head_before: nullable(str),
  head_after: nullable(str),
  blocking: strs,
  marked: z.array(closed({ spec: str, files: strs })),
});

interface Output {
  title: string;
  summary: z.ZodMiniType;
  result: z.ZodMiniType;
}

const OUTPUTS: Record<OutputName, Output> = {
  check: {
    title: "check: the diagnostics of every checked file",
    summary: counts,
    result: open({
      files: z.array(fileDiagnostics),
      staged: z.optional(bool),
      fixed: z.optional(z.array(open({ file: str }))),
      would_fix: z.optional(z.array(open({ file: str }))),
      watch: z.optional(open({ run: num, changed: strs, new: z.array(fileDiagnostics), fixed: z.array(fileDiagnostics) })),
    }),
  },
  ci: {
    title: "ci (and demo): the PR check of merge-base…HEAD",
    summary: open({ files: num, errors: num, warnings: num, drift: num, affected_specs: num }),
    result: open({
      fail_on: z.enum(["error", "warning", "never"]),
      base: open({ ref: str, source: str, commit: str, merge_base: str }),
      head: str,
      changed_files: strs,
      checked: strs,
      affected_specs: strs,
      drift: open({ severity: str, unreconciled: num, specs: z.array(open({ spec_path: str, unreconciled: z.array(open({ path: str })), reconciled: strs })) }),
      files: z.array(fileDiagnostics),
      uncommitted: open({ count: num, paths: strs }),
    }),
  },
  fmt: {
    title: "fmt: each document formatted (or, with --check, that would be)",
    summary: open({ documents: num, unchanged: num, skipped: num, errors: num, formatted: z.optional(num), would_format: z.optional(num) }),
    result: closed({
      check: bool,
      files: z.array(
        closed({
          file: str,
          status: z.enum(["formatted", "would-format", "unchanged", "skipped", "error"]),
          code: z.optional(str),
          pos: z.optional(closed({ line: num, column: num })),
          note: z.optional(str),
          transcript: z.optional(str),
          diff: z.optional(str),
        }),
      ),
      watch: z.optional(closed({ run: num, changed: strs, would_format: strs, formatted: strs })),
    }),
  },
  patch: {
    title: "patch: the outcome of one patch (its op or op list) and the transcript records written",
    summary: closed({ outcome: z.enum(["applied", "rejected", "noop"]), records: num, diagnostics: num }),
    result: open({
      file: str,
      dry_run: bool,
      outcome: z.enum(["applied", "rejected", "noop"]),
      pre_sha256: str,
      post_sha256: str,
      pre_validation: str,
      post_validation: str,
      error: z.optional(open({ code: str, message: str })),
      diagnostics: z.array(diagnostic),
      diagnostic_changes: open({}),
      records: z.array(open({})),
    }),
  },
  "patch-book": {
    title: "patch-book: one op list across a book's chapters (patch book.noma.yml): the outcome, and each chapter's ops and transcript records",
    summary: closed({ outcome: z.enum(["applied", "rejected", "noop"]), records: num, diagnostics: num }),
    result: open({
      file: str,
      dry_run: bool,
      outcome: z.enum(["applied", "rejected", "noop"]),
      error: z.optional(open({ code: str, message: str, op_index: num })),
      recovered: strs,
      chapters: z.array(
        open({
          file: str,
          op_indexes: z.array(num),
          outcome: z.enum(["applied", "rejected", "noop"]),
          pre_sha256: str,
          post_sha256: str,
          pre_validation: str,
          post_validation: str,
          diagnostics: z.array(diagnostic),
          diagnostic_changes: open({}),
          records: z.array(open({})),
        }),
      ),
    }),
  },
  ids: {
    title: "ids: canonical ids in document order and the aliases",
    summary: closed({ ids: num, aliases: num }),
    result: closed({ canonical: strs, aliases: z.record(str, strs), aliasMap: z.record(str, str) }),
  },
  init: {
    title: "init: the files written (or, with --dry-run, that would be)",
    summary: noSummary,
    result: open({
      root: str,
      dry_run: bool,
      files: z.array(open({ path: str, action: str })),
      editors: z.optional(z.array(closed({ editor: z.enum(["vscode", "neovim", "helix", "zed"]), marker: str, file: str, configured: bool, advice: str }))),
      managers: z.array(
        closed({
          manager: z.enum(["pre-commit", "lefthook", "husky"]),
          file: str,
          action: z.enum(["advise", "add", "present", "unsafe"]),
          detail: str,
          entry: z.optional(str),
          activate: z.optional(str),
        }),
      ),
      program: open({ path: nullable(str), source: str }),
      agents: z.array(
        closed({
          agent: z.enum(["claude", "gemini", "codex", "opencode"]),
          path: str,
          action: z.enum(["create", "update", "unchanged", "unsafe"]),
          detail: str,
          snippet: z.optional(str),
        }),
      ),
    }),
  },
  "archive-list": {
    title: "archive list: the archives and their members",
    summary: closed({ archives: num }),
    result: closed({ archives: z.array(open({ archive: str, members: z.array(open({ member: str, size: num, sha256: str })) })) }),
  },
  "archive-restore": {
    title: "archive restore: where a file was restored from",
    summary: closed({ written: bool }),
    result: closed({ path: str, from: str, member: str, unchanged: bool, archived: nullable(open({ archive: str, member: str })) }),
  },
  "ledger-verify": {
    title: "ledger verify: the evidence ledger's sequence and hash chain",
    summary: closed({ lines: num, findings: num, interrupted: num }),
    result: closed({
      file: str,
      lines: num,
      against: nullable(str),
      committed_lines: nullable(num),
      head_sha256: nullable(str),
      findings: z.array(finding),
      interrupted: z.array(closed({ line: num, seq: num, timestamp: str, action: str, path: str, message: str })),
    }),
  },
  "transcript-verify": {
    title: "transcript verify: a document's edit transcript, its chain and its replay",
    summary: closed({ records: num, applied: num, findings: num }),
    result: closed({
      file: str,
      transcript: str,
      records: num,
      applied: num,
      final_sha256: nullable(str),
      findings: z.array(open({ severity, code: str, message: str })),
    }),
  },
  "transcript-accept": {
    title: "transcript accept: the outside edits accepted into a transcript",
    summary: closed({ accepted: num }),
    result: closed({
      file: str,
      transcript: str,
      document_sha256: str,
      accepted: z.array(open({ recorded_sha256: str, accepted_sha256: str })),
      records: z.array(open({})),
    }),
  },
  serve: {
    title: "serve --http: where the server listens (one line, once listening)",
    summary: noSummary,
    result: closed({
      url: str,
      host: str,
      port: num,
      root: str,
      read_only: bool,
      token_source: z.enum(["NOMA_RECONCILE_TOKEN", "generated"]),
      token: z.optional(str),
    }),
  },
  "specs-validate": {
    title: "specs validate: each spec file and its problems",
    summary: noSummary,
    result: closed({
      files: z.array(closed({ path: str, schema_version: nullable(str), valid: bool, problems: z.array(open({})) })),
      system_spec: nullable(str),
    }),
  },
  governs: {
    title: "governs: the specs that govern each path",
    summary: closed({ paths: num, ungoverned: num }),
    result: closed({
      paths: z.array(open({ path: str, governed_by: z.array(open({ spec_path: str })) })),
      directories: z.array(closed({ path: str, files: strs })),
    }),
  },
  coverage: {
    title: "coverage: tracked files no spec governs",
    summary: noSummary,
    result: closed({
      policy: z.enum(["warn", "strict", "off"]),
      message: nullable(str),
      policy_source: nullable(str),
      tracked: num,
      governed: num,
      excluded: num,
      uncovered: strs,
      failing: bool,
    }),
  },
  affected: {
    title: "affected: list_affected_specs (NotarAI's shape) since the merge-base with the base",
    summary: closed({ base, changed_files: num, affected_specs: num }),
    result: TOOL_SCHEMAS.list_affected_specs.output,
  },
  diff: {
    title: "diff: get_spec_diff (NotarAI's shape) of one spec against the merge-base with the base",
    summary: closed({ base, spec: str, files: num, skipped: num, binary_changes: num, spec_changes: num }),
    result: TOOL_SCHEMAS.get_spec_diff.output,
  },
  changed: {
    title: "changed: get_changed_artifacts (NotarAI's shape)",
    summary: closed({ spec: str, changed_artifacts: num }),
    result: TOOL_SCHEMAS.get_changed_artifacts.output,
  },
  "mark-reconciled": {
    title: "mark-reconciled: the files recorded as reconciled, per spec",
    summary: noSummary,
    result: open({ updated: num, by_spec: z.array(markedForSpec), not_marked: z.array(open({ path: str, reason: str })), deleted: strs, dry_run: bool }),
  },
  "mark-reconciled-all": {
    title: "mark-reconciled --all: every governed file baselined, and the snapshot",
    summary: noSummary,
    result: open({ dry_run: bool, specs: z.array(markedForSpec), updated: num, snapshot_path: str, snapshot, uncommitted: strs }),
  },
  "cache-status": {
    title: "cache status: the reconciliation cache",
    summary: noSummary,
    result: open({ path: str, status: str, warning: nullable(str), bytes: num, schema_version: nullable(num), rows: open({}), specs: z.record(str, num) }),
  },
  "cache-clear": { title: "cache clear: clear_cache (NotarAI's shape)", summary: noSummary, result: TOOL_SCHEMAS.clear_cache.output },
  "state-show": { title: "state show: the reconciliation snapshot", summary: noSummary, result: open({ exists: bool, path: str }) },
  "state-snapshot": { title: "state snapshot: snapshot_state (NotarAI's shape)", summary: noSummary, result: TOOL_SCHEMAS.snapshot_state.output },
  "state-reset": { title: "state reset: the snapshot removed", summary: noSummary, result: open({ removed: bool }) },
  run: {
    title: "run: one run of the loop",
    summary: noSummary,
    result: open({
      run_id: str,
      status: str,
      iteration: num,
      run_dir: str,
      goal: str,
      reason: str,
      steps: z.array(open({})),
      scorecard: nullable(str),
      worktree: closed({ dir: str, branch: str, base: str }),
      commit: nullable(open({ branch: str, commit: nullable(str), files: z.array(closed({ status: str, path: str })) })),
      applied: nullable(applyResult),
    }),
  },
  "runs-list": { title: "runs list: the recorded runs", summary: noSummary, result: open({ runs: z.array(open({})), total: num }) },
  "runs-show": {
    title: "runs show: one run, its steps and events",
    summary: noSummary,
    result: open({
      run: open({}),
      live: bool,
      specs: strs,
      steps: z.array(open({})),
      events: z.array(open({})),
      events_total: num,
      worktree: nullable(closed({ dir: str, branch: str, base: str, exists: bool })),
      result: nullable(closed({ branch: str, commit: nullable(str), files: num })),
      applied: nullable(closed({ onto: str, commit: str })),
      stuck: nullable(closed({ kind: str, message: str, evidence: strs })),
    }),
  },
  "runs-apply": { title: "runs apply: a passed run's commit brought into the current branch, or why not", summary: noSummary, result: applyResult },
  "runs-prune": {
    title: "runs prune: the old runs removed (or kept, and why)",
    summary: noSummary,
    result: closed({
      dry_run: bool,
      keep_last: num,
      keep_days: num,
      total: num,
      removed: num,
      runs: z.array(
        closed({
          run_id: str,
          created_at: str,
          status: str,
          record: z.enum(["removed", "kept"]),
          worktree: nullable(closed({ dir: str, action: z.enum(["removed", "kept", "none"]) })),
          branch: nullable(closed({ name: str, action: z.enum(["deleted", "kept", "none"]) })),
          note: nullable(str),
        }),
      ),
    }),
  },
  reconcile: {
    title: "reconcile: drift fixed by a run, its branch pushed and a pull request opened or updated (or what would have been)",
    summary: noSummary,
    result: open({
      specs: strs,
      run: nullable(open({ run_id: str, status: str })),
      publish: nullable(open({ pushed: bool, remote: nullable(str), ref: nullable(str), pull_request: nullable(open({})), dry_run_reason: nullable(str) })),
      message: str,
    }),
  },
  "runs-html": {
    title: "runs show --html, runs report: the HTML page written",
    summary: noSummary,
    result: closed({ file: str, bytes: num, run_id: nullable(str), runs: num }),
  },
};

/** The zod schema of the whole output `name` (envelope and payload). */
export function outputSchema(name: OutputName): z.ZodMiniType {
  const o = OUTPUTS[name];
  return closed({
    schema: z.literal(outputSchemaId(name)),
    tool: closed({ name: z.literal(TOOL_NAME), version: str }),
    command: str,
    ok: bool,
    summary: o.summary,
    result: o.result,
    warnings: strs,
  });
}

/** `output/<name>` for every output. */
export const OUTPUT_SCHEMA_NAMES = OUTPUT_NAMES.map((n) => `output/${n}`);

/** The JSON Schema (draft 2020-12) of the output `name`, with its `$id` and title. */
export function outputJsonSchema(name: OutputName): Record<string, unknown> {
  const generated = z.toJSONSchema(outputSchema(name), { io: "output", unrepresentable: "any" }) as Record<string, unknown>;
  return {
    ...generated,
    $id: `https://noma-reconcile.dev/schema/output/${name}/${TOOL_VERSION}.json`,
    title: `${TOOL_NAME} --format json: ${OUTPUTS[name].title} (envelope ${outputSchemaId(name)})`,
  };
}
