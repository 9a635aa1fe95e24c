/**
 * `noma-reconcile ci [--base REF]`: the PR check. Translates options, runs
 * `runCiCheck`, prints the report and, inside GitHub Actions, writes the step
 * summary and the step outputs. Uncommitted changes the check did not judge
 * are named on stderr (and in `uncommitted` of the JSON envelope). Exit 0 clean, 1 findings (per --fail-on),
 * 2 usage, configuration or git errors.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { runCiCheck } from "../../check/commit/run-ci-check.js";
import {
  ciFails,
  displayedCiReport,
  renderCiAnnotations,
  renderCiJson,
  renderCiOutputs,
  renderCiSarif,
  renderCiSummary,
  renderCiText,
  type FailOn,
} from "../../check/commit/render-ci-report.js";
import { uncommittedMessage } from "../../check/commit/uncommitted-notice.js";
import { GitError } from "../../git/exec-git.js";
import { RuntimeError, UsageError } from "../../errors/noma-error.js";
import { useColor, type CliIO } from "../cli-io.js";
import { choice, listOption, repoContext } from "../repo-context.js";

const FORMATS = ["text", "json", "github", "sarif"] as const;
const FAIL_ON: readonly FailOn[] = ["error", "warning", "never"];

export async function ciCommand(options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = choice("format", options["format"], FORMATS);
  const failOn = choice("fail-on", options["failOn"] ?? "error", FAIL_ON);
  const base = options["base"] !== undefined && options["base"] !== "" ? String(options["base"]) : undefined;
  const ctx = repoContext(io.cwd);
  if (!ctx.inRepo) throw new UsageError("not inside a git repository");
  const quiet = format !== "text" && format !== "github";
  let report;
  try {
    report = await runCiCheck({
      root: ctx.root,
      cwd: io.cwd,
      env: io.env,
      ...(base !== undefined ? { base } : {}),
      ...(options["config"] !== undefined ? { configPath: String(options["config"]) } : {}),
      document: { ignoreRules: listOption(options["ignoreRule"]) },
      onWarning: (m) => io.stderr(`noma-reconcile: warning: ${m}\n`),
      onProgress: (m) => {
        if (!quiet) io.stderr(`noma-reconcile: ${m}\n`);
      },
    });
  } catch (e) {
    if (e instanceof GitError) throw new RuntimeError(e.message, { cause: e });
    throw e;
  }
  report = displayedCiReport(report); // names that are not UTF-8 in git's quoted form, in every format
  const notice = uncommittedMessage(report.uncommitted);
  if (notice !== null) io.stderr(`noma-reconcile: ${notice}\n`);
  switch (format) {
    case "json":
      io.stdout(renderCiJson(report, failOn));
      break;
    case "sarif":
      io.stdout(renderCiSarif(report));
      break;
    case "github":
      io.stdout(renderCiAnnotations(report));
      break;
    default:
      io.stdout(renderCiText(report, useColor(options["color"], io.env, io.stdoutIsTTY)));
  }
  if (options["sarifFile"] !== undefined && options["sarifFile"] !== "") writeFileSync(resolve(io.cwd, String(options["sarifFile"])), renderCiSarif(report));
  const summaryFile = io.env["GITHUB_STEP_SUMMARY"];
  if (summaryFile !== undefined && summaryFile !== "" && (format === "github" || io.env["GITHUB_ACTIONS"] === "true"))
    appendFileSync(summaryFile, renderCiSummary(report));
  const outputFile = io.env["GITHUB_OUTPUT"];
  if (outputFile !== undefined && outputFile !== "") appendFileSync(outputFile, renderCiOutputs(report, failOn));
  return ciFails(report, failOn) ? 1 : 0;
}
