/**
 * Render the PR check's report (pure): text, a versioned JSON envelope,
 * GitHub (annotations capped per type with errors first and one notice
 * pointing at the summary; a Markdown step summary ≤ 1 MiB; `name=value`
 * outputs), and SARIF 2.1.0.
 */
import { countDiagnostics } from "../../report/file-diagnostics.js";
import { formatDiagnosticsText } from "../../report/format-text.js";
import { formatGithubAnnotations, formatMarkdownSummary } from "../../report/format-github.js";
import { formatSarif } from "../../report/format-sarif.js";
import { describeCheckCode } from "../check-codes.js";
import { TOOL_NAME } from "../../version.js";
import type { CiReport } from "./run-ci-check.js";
import { formatJsonEnvelope, outputSchemaId } from "../../report/json-envelope.js";
import { displayPaths, displayResults } from "../../report/display-paths.js";
import { displayPath } from "../../git/git-path.js";

export const CI_JSON_SCHEMA = outputSchemaId("ci");
/** GitHub's step summary limit. */
export const STEP_SUMMARY_LIMIT = 1024 * 1024;

export interface CiCounts {
  files: number;
  errors: number;
  warnings: number;
  infos: number;
  /** Unreconciled (spec, file) pairs. */
  drift: number;
  affected_specs: number;
}

export function ciCounts(report: CiReport): CiCounts {
  const c = countDiagnostics(report.results);
  return {
    files: report.checked.length,
    errors: c.errors,
    warnings: c.warnings,
    infos: c.infos,
    drift: report.drift.unreconciled,
    affected_specs: report.affected_specs.length,
  };
}

export type FailOn = "error" | "warning" | "never";

/** Whether the report fails the check under `failOn`. */
export function ciFails(report: CiReport, failOn: FailOn): boolean {
  const c = ciCounts(report);
  if (failOn === "never") return false;
  return c.errors > 0 || (failOn === "warning" && c.warnings > 0);
}

const short = (sha: string): string => sha.slice(0, 12);
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

function baseLine(r: CiReport): string {
  return (
    `base ${r.base.ref} (${r.base.source}), merge-base ${short(r.base.merge_base)}, ` +
    `head ${short(r.head)}: ${plural(r.changed_files.length, "changed file")}, ${r.checked.length} checked`
  );
}

function driftLines(r: CiReport): string[] {
  const lines: string[] = [];
  const how = r.drift.severity === "error" ? "errors (drift: error)" : "warnings; `drift: error` in .notarai/config.yaml makes them fail";
  if (r.affected_specs.length === 0) return ["Drift: no spec is affected by this change."];
  lines.push(`Drift: ${plural(r.drift.unreconciled, "unreconciled governed file")} across ${plural(r.affected_specs.length, "affected spec")} (${how}).`);
  for (const s of r.drift.specs) {
    lines.push(`  ${s.spec_path}: ${s.unreconciled.length} unreconciled, ${s.reconciled.length} reconciled`);
    for (const f of s.unreconciled) lines.push(`    ${f.path}  via "${f.glob}" (${f.category}; ${f.change}; ${f.reason})`);
  }
  if (!r.drift.snapshot.present) lines.push("  (no committed snapshot .notarai/reconciliation_state.json: every governed change counts as unreconciled)");
  return lines;
}

export function renderCiText(r: CiReport, color = false): string {
  const findings = r.results
    .map((f) => ({ file: f.file, diagnostics: f.diagnostics.filter((d) => d.code !== "drift-unreconciled") }))
    .filter((f) => f.diagnostics.length > 0);
  const c = ciCounts(r);
  return `${[
    baseLine(r),
    "",
    formatDiagnosticsText(findings, { color }).trimEnd(),
    "",
    ...driftLines(r),
    "",
    `${plural(c.errors, "error")}, ${plural(c.warnings, "warning")}.`,
  ].join("\n")}\n`;
}

export function renderCiJson(r: CiReport, failOn: FailOn, command = "ci"): string {
  return formatJsonEnvelope("ci", {
    command,
    ok: !ciFails(r, failOn),
    summary: { ...ciCounts(r) },
    result: {
      fail_on: failOn,
      base: r.base,
      head: r.head,
      changed_files: r.changed_files,
      checked: r.checked,
      affected_specs: r.affected_specs,
      drift: r.drift,
      files: r.results,
      // Last on purpose: the one field the work tree may change; everything above is the verdict on HEAD.
      uncommitted: r.uncommitted,
    },
  });
}

export function renderCiAnnotations(r: CiReport, cap = 10): string {
  return formatGithubAnnotations(
    r.results.filter((f) => f.diagnostics.length > 0),
    cap,
  );
}

function md(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** The Markdown step summary, never longer than `limit` bytes. */
export function renderCiSummary(r: CiReport, limit = STEP_SUMMARY_LIMIT): string {
  const findings = r.results
    .filter((f) => f.diagnostics.some((d) => d.code !== "drift-unreconciled"))
    .map((f) => ({ file: f.file, diagnostics: f.diagnostics.filter((d) => d.code !== "drift-unreconciled") }));
  const head = [
    `## ${TOOL_NAME} ci`,
    "",
    `Base \`${md(r.base.ref)}\` (${r.base.source}), merge-base \`${short(r.base.merge_base)}\`, head ` +
      `\`${short(r.head)}\`: ${plural(r.changed_files.length, "changed file")}, ${r.checked.length} checked.`,
    "",
  ].join("\n");
  let drift = `### Drift\n\n`;
  if (r.affected_specs.length === 0) drift += "No spec is affected by this change.\n";
  else {
    drift +=
      `${plural(r.drift.unreconciled, "unreconciled governed file")} across ${plural(r.affected_specs.length, "affected spec")} ` +
      `(${r.drift.severity === "error" ? "errors" : "warnings"}).\n\n| spec | file | governed through | category | change | why |\n| --- | --- | --- | ` +
      `--- | --- | --- |\n`;
    const rows: string[] = [];
    for (const s of r.drift.specs)
      for (const f of s.unreconciled)
        rows.push(`| \`${md(s.spec_path)}\` | \`${md(f.path)}\` | \`${md(f.glob)}\` | ${md(f.category)} | ${f.change} | ${f.reason} |`);
    const clean = r.drift.specs.filter((s) => s.unreconciled.length === 0).map((s) => `\`${md(s.spec_path)}\``);
    drift += rows.join("\n") + (rows.length > 0 ? "\n" : "");
    if (clean.length > 0) drift += `\nFully reconciled: ${clean.join(", ")}.\n`;
  }
  const budget = limit - Buffer.byteLength(head) - 256;
  let driftPart = drift;
  if (Buffer.byteLength(driftPart) > budget / 2) driftPart = truncateLines(driftPart, Math.floor(budget / 2));
  const body = formatMarkdownSummary("Findings", findings).replace(/^## Findings/, "### Findings");
  const bodyPart = Buffer.byteLength(body) > budget - Buffer.byteLength(driftPart) ? truncateLines(body, budget - Buffer.byteLength(driftPart)) : body;
  return `${head}${bodyPart}\n${driftPart}`;
}

function truncateLines(text: string, maxBytes: number): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let size = 0;
  for (let i = 0; i < lines.length; i++) {
    size += Buffer.byteLength(lines[i]!) + 1;
    if (size > maxBytes - 80) {
      out.push("", `…and ${lines.length - i} more lines (the step summary is limited to 1 MiB; use --format json for everything).`);
      break;
    }
    out.push(lines[i]!);
  }
  return `${out.join("\n")}\n`;
}

/** `name=value` lines for `$GITHUB_OUTPUT`. */
export function renderCiOutputs(r: CiReport, failOn: FailOn): string {
  const c = ciCounts(r);
  const out: Array<[string, string]> = [
    ["affected-specs", JSON.stringify(r.affected_specs)],
    ["affected-spec-count", String(c.affected_specs)],
    ["errors", String(c.errors)],
    ["warnings", String(c.warnings)],
    ["drift", String(c.drift)],
    ["files-checked", String(c.files)],
    ["result", ciFails(r, failOn) ? "fail" : "pass"],
  ];
  return out.map(([k, v]) => `${k}=${v}\n`).join("");
}

export function renderCiSarif(r: CiReport): string {
  return formatSarif(r.results, describeCheckCode);
}

/** The report with every file named as reports show it (display-paths.ts): what every renderer above is given. */
export function displayedCiReport(r: CiReport): CiReport {
  return {
    ...r,
    changed_files: displayPaths(r.changed_files),
    checked: displayPaths(r.checked),
    results: displayResults(r.results),
    drift: {
      ...r.drift,
      specs: r.drift.specs.map((s) => ({
        ...s,
        spec_path: displayPath(s.spec_path),
        unreconciled: s.unreconciled.map((f) => ({ ...f, path: displayPath(f.path) })),
        reconciled: displayPaths(s.reconciled),
      })),
    },
    affected_specs: displayPaths(r.affected_specs),
    uncommitted: { ...r.uncommitted, paths: displayPaths(r.uncommitted.paths) },
  };
}
