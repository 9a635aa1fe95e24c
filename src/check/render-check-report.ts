/**
 * Render a check's results in one of the four formats (pure): what goes to
 * stdout, and for `github` the Markdown for `$GITHUB_STEP_SUMMARY`.
 */
import type { FileDiagnostics } from "../report/file-diagnostics.js";
import { formatDiagnosticsText } from "../report/format-text.js";
import { formatDiagnosticsJson } from "../report/format-json.js";
import { formatGithubAnnotations, formatMarkdownSummary } from "../report/format-github.js";
import { formatSarif } from "../report/format-sarif.js";
import { describeCheckCode } from "./check-codes.js";

export type CheckFormat = "text" | "json" | "github" | "sarif";
export const CHECK_FORMATS: readonly CheckFormat[] = ["text", "json", "github", "sarif"];

export interface RenderedReport {
  stdout: string;
  /** Markdown for the step summary (github only). */
  summary: string | null;
}

export function renderCheckReport(
  results: readonly FileDiagnostics[],
  format: CheckFormat,
  options: { color?: boolean; title?: string; json?: Record<string, unknown>; maxWarnings?: number } = {},
): RenderedReport {
  const withFindings = results.filter((r) => r.diagnostics.length > 0);
  switch (format) {
    case "json":
      return { stdout: formatDiagnosticsJson(results, options.json, options.maxWarnings), summary: null };
    case "sarif":
      return { stdout: formatSarif(results, describeCheckCode), summary: null };
    case "github":
      return { stdout: formatGithubAnnotations(withFindings), summary: formatMarkdownSummary(options.title ?? "noma-reconcile check", withFindings) };
    default:
      return { stdout: formatDiagnosticsText(withFindings, { color: options.color === true }), summary: null };
  }
}
