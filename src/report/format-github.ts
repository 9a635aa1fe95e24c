/**
 * GitHub Actions output: workflow-command annotations (errors first, at most
 * `cap` per severity, then one notice pointing at the step summary) and a
 * Markdown report for `$GITHUB_STEP_SUMMARY`.
 */
import type { Diagnostic } from "../validate/diagnostic.js";
import type { FileDiagnostics } from "./file-diagnostics.js";
import { countDiagnostics, lineSpan, location } from "./file-diagnostics.js";
import { plural } from "./plural.js";

/** Escape workflow-command data: `%`, `\r`, `\n`. */
export function escapeData(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Escape a workflow-command property: data escapes plus `:` and `,`. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

const COMMAND: Record<Diagnostic["severity"], string> = { error: "error", warning: "warning", info: "notice" };

export function annotation(file: string, d: Diagnostic): string {
  const props = [`file=${escapeProperty(file)}`];
  if (d.pos !== undefined) {
    props.push(`line=${d.pos.line}`);
    if (d.endLine !== undefined) props.push(`endLine=${d.endLine}`);
    props.push(`col=${d.pos.column}`);
  }
  props.push(`title=${escapeProperty(`[${d.code}]`)}`);
  return `::${COMMAND[d.severity]} ${props.join(",")}::${escapeData(d.message)}`;
}

export function formatGithubAnnotations(files: readonly FileDiagnostics[], cap = 10): string {
  const bySeverity: Record<Diagnostic["severity"], string[]> = { error: [], warning: [], info: [] };
  for (const f of files) for (const d of f.diagnostics) bySeverity[d.severity].push(annotation(f.file, d));
  const out: string[] = [];
  let hidden = 0;
  for (const sev of ["error", "warning", "info"] as const) {
    const list = bySeverity[sev];
    out.push(...list.slice(0, cap));
    hidden += Math.max(0, list.length - cap);
  }
  if (hidden > 0)
    out.push(`::notice title=${escapeProperty("noma-reconcile")}::${escapeData(`${hidden} more findings are not annotated; the job summary lists them all.`)}`);
  if (out.length === 0) out.push("✓ No issues found.");
  return `${out.join("\n")}\n`;
}

function mdEscape(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** GitHub's step summary limit is 1 MiB in bytes (UTF-8): this much for the table, the rest for the lines around it. */
const MAX_SUMMARY_BYTES = 1024 * 1024 - 4096;

/**
 * The Markdown summary. Sizes are counted in UTF-8 bytes, as GitHub counts them (a message in
 * Japanese takes three bytes a character); rows are kept whole, so nothing is cut inside a
 * row, let alone inside a character.
 */
export function formatMarkdownSummary(title: string, files: readonly FileDiagnostics[], maxBytes = MAX_SUMMARY_BYTES): string {
  const c = countDiagnostics(files);
  const lines = [
    `## ${title}`,
    "",
    `${plural(c.errors, "error")}, ${plural(c.warnings, "warning")}, ${plural(c.infos, "note")} in ${plural(c.files, "file")}.`,
    "",
  ];
  const rows: string[] = [];
  for (const f of files) {
    for (const d of f.diagnostics) rows.push(`| ${d.severity} | \`${d.code}\` | \`${mdEscape(location(f.file, d))}\`${lineSpan(d)} | ${mdEscape(d.message)} |`);
  }
  if (rows.length > 0) {
    lines.push("| severity | code | where | message |", "| --- | --- | --- | --- |");
    let size = Buffer.byteLength(lines.join("\n"));
    for (let i = 0; i < rows.length; i++) {
      size += Buffer.byteLength(rows[i]!) + 1;
      if (size > maxBytes) {
        lines.push("", `…and ${rows.length - i} more (summary size limit reached).`);
        break;
      }
      lines.push(rows[i]!);
    }
  }
  return `${lines.join("\n")}\n`;
}
