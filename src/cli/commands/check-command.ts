/**
 * `noma-reconcile check [paths…]`: validate documents and print diagnostics.
 */
import { existsSync, readFileSync, statSync, appendFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { checkDocument } from "../../check/check-document.js";
import { listNomaFiles, MissingPathError } from "../../check/list-noma-files.js";
import { containPath } from "../../fsx/contain-path.js";
import { countDiagnostics, type FileDiagnostics } from "../../report/file-diagnostics.js";
import { formatDiagnosticsText } from "../../report/format-text.js";
import { formatDiagnosticsJson } from "../../report/format-json.js";
import { formatGithubAnnotations, formatMarkdownSummary } from "../../report/format-github.js";
import { formatSarif } from "../../report/format-sarif.js";
import { UsageError } from "../cli-error.js";
import { useColor, type CliIO } from "../cli-io.js";
import { choice, listOption, repoContext } from "../repo-context.js";

const FORMATS = ["text", "json", "github", "sarif"] as const;

function contained(root: string, fromFile: string, target: string): string | null {
  try {
    return containPath(join(dirname(join(root, fromFile)), target), root, root);
  } catch {
    return null;
  }
}

function isFileAt(root: string, rel: string | null): boolean {
  if (rel === null) return false;
  const abs = join(root, rel);
  return existsSync(abs) && statSync(abs).isFile();
}

export async function checkCommand(paths: string[], options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = choice("format", options["format"], FORMATS);
  let staleDays: number | undefined;
  if (options["staleDays"] !== undefined) {
    staleDays = Number(options["staleDays"]);
    if (!Number.isInteger(staleDays) || staleDays < 0) throw new UsageError(`--stale-days must be a whole number of days; got "${String(options["staleDays"])}"`);
  }
  const ctx = repoContext(io.cwd);
  if (!ctx.inRepo && paths.length === 0) {
    throw new UsageError("not inside a git repository: pass the .noma files or directories to check");
  }
  let files: string[];
  try {
    files = listNomaFiles(ctx.root, ctx.inRepo, paths, io.cwd);
  } catch (e) {
    if (e instanceof MissingPathError) throw new UsageError(e.message);
    throw e;
  }
  const ignoreRules = listOption(options["ignoreRule"]);
  const results: FileDiagnostics[] = [];
  for (const file of files) {
    const abs = join(ctx.root, file);
    if (!existsSync(abs)) continue; // tracked but deleted in the work tree
    const text = readFileSync(abs, "utf8");
    const opts: Parameters<typeof checkDocument>[2] = {
      ignoreRules,
      datasetSrcExists: (from, src) => /^[a-z][a-z0-9+.-]*:\/\//i.test(src) || isFileAt(ctx.root, contained(ctx.root, from, src)),
      chapterExists: (from, chapter) => isFileAt(ctx.root, contained(ctx.root, from, chapter)),
    };
    if (options["profile"] !== undefined) opts.profile = String(options["profile"]);
    if (staleDays !== undefined) opts.staleDays = staleDays;
    results.push(checkDocument(file, text, opts));
  }
  const counts = countDiagnostics(results);
  const withFindings = results.filter((r) => r.diagnostics.length > 0);
  switch (format) {
    case "json":
      io.stdout(formatDiagnosticsJson(results));
      break;
    case "sarif":
      io.stdout(formatSarif(results));
      break;
    case "github": {
      io.stdout(formatGithubAnnotations(withFindings));
      const summaryFile = io.env["GITHUB_STEP_SUMMARY"];
      if (summaryFile !== undefined && summaryFile !== "") appendFileSync(summaryFile, formatMarkdownSummary("noma-reconcile check", withFindings));
      break;
    }
    default:
      io.stdout(formatDiagnosticsText(withFindings, { color: useColor(options["color"], io.env, io.stdoutIsTTY) }));
      if (files.length === 0) io.stderr("No .noma documents found.\n");
      else io.stderr(`${counts.files} ${counts.files === 1 ? "file" : "files"} checked: ${counts.errors} errors, ${counts.warnings} warnings.\n`);
  }
  return counts.errors > 0 ? 1 : 0;
}
