/**
 * The one envelope of every `--format json` output of the CLI:
 *
 *   { schema, tool: {name, version}, command, ok, summary, result, warnings }
 *
 * `schema` names this command's output schema (`noma-reconcile/<name>@<n>`;
 * `noma-reconcile schema output/<name>` prints its JSON Schema), `command` the
 * command as typed (`state show`), `ok` the verdict, `summary` counts and context
 * (always an object), `result` the command's payload (for the reconciliation
 * commands exactly what the NotarAI tool of the same name returns), `warnings`
 * what was also printed on stderr. Consumers branch on `schema` and ignore fields
 * they do not know. Light on purpose (no zod): the hook path prints it.
 */
import { TOOL_NAME, TOOL_VERSION } from "../version.js";

/** The version of each output's schema; bumped when a field moves or changes meaning (adding one does not). */
export const OUTPUT_SCHEMA_VERSIONS = {
  check: 2,
  ci: 2,
  fmt: 2,
  patch: 2,
  "patch-book": 2,
  ids: 2,
  init: 2,
  "archive-list": 2,
  "archive-restore": 2,
  "ledger-verify": 2,
  "transcript-verify": 2,
  "transcript-accept": 2,
  serve: 2,
  "specs-validate": 2,
  governs: 2,
  coverage: 2,
  affected: 2,
  diff: 2,
  changed: 2,
  "mark-reconciled": 2,
  "mark-reconciled-all": 2,
  "cache-status": 2,
  "cache-clear": 2,
  "state-show": 2,
  "state-snapshot": 2,
  "state-reset": 2,
  run: 3,
  "runs-list": 2,
  "runs-show": 2,
  "runs-apply": 1,
  "runs-prune": 1,
  reconcile: 1,
  "runs-html": 2,
} as const;

export type OutputName = keyof typeof OUTPUT_SCHEMA_VERSIONS;
export const OUTPUT_NAMES = Object.keys(OUTPUT_SCHEMA_VERSIONS) as OutputName[];

/** `noma-reconcile/<name>@<n>`: the value of `schema` in the output `name`. */
export function outputSchemaId(name: OutputName): string {
  return `${TOOL_NAME}/${name}@${OUTPUT_SCHEMA_VERSIONS[name]}`;
}

export interface JsonEnvelope<R = unknown> {
  schema: string;
  tool: { name: string; version: string };
  command: string;
  ok: boolean;
  summary: Record<string, unknown>;
  result: R;
  warnings: string[];
}

export interface EnvelopeParts<R> {
  ok: boolean;
  result: R;
  summary?: Record<string, unknown>;
  warnings?: readonly string[];
  /** The command as typed, when it is not the output name with spaces (`mark-reconciled --all`). */
  command?: string;
}

export function jsonEnvelope<R>(name: OutputName, parts: EnvelopeParts<R>): JsonEnvelope<R> {
  return {
    schema: outputSchemaId(name),
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    command: parts.command ?? commandOf(name),
    ok: parts.ok,
    summary: parts.summary ?? {},
    result: parts.result,
    warnings: [...(parts.warnings ?? [])],
  };
}

/** The envelope as printed: 2-space JSON and a newline (`compact`: one line, for a stream). */
export function formatJsonEnvelope<R>(name: OutputName, parts: EnvelopeParts<R>, compact = false): string {
  return `${JSON.stringify(jsonEnvelope(name, parts), null, compact ? undefined : 2)}\n`;
}

const MULTI_WORD = /^(archive|ledger|transcript|specs|cache|state|runs)-/;

function commandOf(name: OutputName): string {
  if (name === "mark-reconciled-all") return "mark-reconciled --all";
  return MULTI_WORD.test(name) ? name.replace("-", " ") : name;
}
