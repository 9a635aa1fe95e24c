/**
 * The body of `check` once there is something to judge: the work tree (or,
 * given the staged entries, the index), rendered in the requested format.
 * Loaded lazily by `check-command.ts`.
 */
import { parseQuotedPath } from "../../git/git-path.js";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { containPath } from "../../fsx/contain-path.js";
import { SKIP_ENV } from "../../hooks/hook-script.js";
import type { RawDiffEntry } from "../../git/parse-diff-raw.js";
import type { StagedPrefetch } from "../../check/staged/prefetch-staged.js";
import { countDiagnostics } from "../../report/file-diagnostics.js";
import { tooManyWarningsMessage } from "../../report/format-json.js";
import { plural } from "../../report/plural.js";
import { renderCheckReport, CHECK_FORMATS } from "../../check/render-check-report.js";
import type { CheckRun } from "../../check/check-worktree.js";
import type { ValidateOptions } from "../../validate/validate-noma.js";

/**
 * Loads the fixes (check-fixes.ts) as its own ES module: given by the bin, so the check body
 * (dist/bodies/check.cjs, what every `check` and the hook compile) holds none of the patch
 * engine they need.
 */
export type LoadFixes = () => Promise<typeof import("./check-fixes.js")>;
import { UsageError } from "../../errors/noma-error.js";
import { useColor, type CliIO } from "../cli-io.js";
import { choice, listOption, repoContext } from "../repo-context.js";
import { shortRunJitBeforeParse } from "../startup/prepare-short-run-jit.js";
import { readRegularFileIfPresent } from "../../fsx/read-regular-file.js";
import { decodeText } from "../../fsx/utf8-text.js";

/** The configuration's text, or null when there is none; one that cannot be read as text is an error (exit 2). */
function readOrNull(abs: string, rel: string): string | null {
  const bytes = readRegularFileIfPresent(abs, rel);
  return bytes === null ? null : decodeText(bytes, rel);
}

const NOTHING_IN = "no .noma documents, books, transcripts, sidecars or specs in: ";

/** The paths given (inside the repository) under which no judged file lies: what to say of each. */
function pathsWithNothing(paths: readonly string[], run: CheckRun, root: string, cwd: string): string[] {
  const out: string[] = [];
  const under = (files: readonly string[], rel: string): number => files.filter((f) => f === rel || f.startsWith(`${rel}/`)).length;
  const judged = run.results.map((r) => r.file);
  for (const given of paths) {
    let rel: string;
    try {
      rel = containPath(parseQuotedPath(given) ?? given, root, cwd);
    } catch {
      continue; // outside the repository: read where it is, named as given
    }
    if (rel === "") continue;
    if (under(judged, rel) > 0) continue;
    const excluded = under(run.excluded ?? [], rel);
    out.push(
      excluded > 0 ? `nothing to check in ${given}: ${plural(excluded, "file")} there excluded by the configuration's exclude` : `${NOTHING_IN}${given}`,
    );
  }
  return out;
}

export async function checkRun(
  paths: string[],
  options: Record<string, unknown>,
  io: CliIO,
  staged: RawDiffEntry[] | undefined,
  prefetch: StagedPrefetch | undefined,
  loadFixes: LoadFixes,
): Promise<number> {
  const format = choice("format", options["format"], CHECK_FORMATS);
  let staleDays: number | undefined;
  if (options["staleDays"] !== undefined) {
    staleDays = Number(options["staleDays"]);
    if (!Number.isInteger(staleDays) || staleDays < 0)
      throw new UsageError(`--stale-days must be a whole number of days; got "${String(options["staleDays"])}"`);
  }
  let maxWarnings: number | undefined;
  if (options["maxWarnings"] !== undefined) {
    maxWarnings = Number(options["maxWarnings"]);
    if (options["maxWarnings"] === true || options["maxWarnings"] === "" || !Number.isInteger(maxWarnings) || maxWarnings < 0)
      throw new UsageError(`--max-warnings takes a whole number of warnings (0: fail on any warning); got ${JSON.stringify(options["maxWarnings"])}`);
  }
  // V8 is tuned for a short run once the documents to parse are large (prepare-short-run-jit.ts).
  const document: { ignoreRules: string[]; profile?: string; staleDays?: number; beforeParse: (chars: number) => void } = {
    ignoreRules: listOption(options["ignoreRule"]),
    beforeParse: shortRunJitBeforeParse(io.env),
  };
  if (options["profile"] !== undefined) document.profile = String(options["profile"]);
  if (staleDays !== undefined) document.staleDays = staleDays;
  const onWarning = (m: string): void => io.stderr(`noma-reconcile: ${m}\n`);
  const common = { cwd: io.cwd, document, onWarning, ...(options["config"] !== undefined ? { configPath: String(options["config"]) } : {}) };
  const fix = options["fix"] === true;
  const fixDryRun = options["fixDryRun"] === true;
  if (fix && fixDryRun) throw new UsageError("give one of --fix and --fix-dry-run");
  // The options the documents are validated with, for the fixes (their books are added per document).
  const validate: ValidateOptions = { ignoreRules: document.ignoreRules };
  if (document.profile !== undefined) validate.profile = document.profile;
  if (document.staleDays !== undefined) validate.staleDays = document.staleDays;

  if (options["watch"] === true) {
    if (fix || fixDryRun) throw new UsageError("--watch only reports; run --fix (or --fix-dry-run) on its own");
    if (format !== "text" && format !== "json") throw new UsageError(`--watch prints text or one JSON line per run; --format ${format} is a one-off report`);
    const ctx = repoContext(io.cwd);
    if (!ctx.inRepo) throw new UsageError("--watch watches a git repository: run it inside one");
    const { splitOutsidePaths } = await import("../../check/check-outside.js");
    const { outside } = splitOutsidePaths(paths, ctx.root, io.cwd);
    if (outside.length > 0) throw new UsageError(`--watch watches the repository; ${outside[0]} is outside it`);
    const { checkWorktree } = await import("../../check/check-worktree.js");
    const { checkWatch } = await import("./check-watch.js");
    return checkWatch({
      root: ctx.root,
      io,
      format,
      color: useColor(options["color"], io.env, io.stdoutIsTTY),
      ...(maxWarnings !== undefined ? { maxWarnings } : {}),
      // A long-lived process: V8 keeps its defaults (no short-run tuning, prepare-short-run-jit.ts).
      judge: () => checkWorktree({ root: ctx.root, inRepo: true, paths, ...common, document: { ...document, beforeParse: () => {} } }),
    });
  }

  let run: CheckRun;
  let fixReport: Record<string, unknown> = {};
  let root = io.cwd;
  // Errors are answered by the CLI (main.ts): a path outside the repository or missing is a usage error, git failing an expected one.
  if (staged !== undefined) {
    // The hook may fix and re-stage: then what is staged is listed again.
    let entries = staged;
    let ahead = prefetch;
    if (fixDryRun) throw new UsageError("--fix-dry-run shows the fixes of the work tree; drop --staged (the hook fixes with --fix or fix_on_commit)");
    const { stagedConfig } = await import("../../check/staged/staged-config.js");
    const config = await stagedConfig(io.cwd, entries, {
      ...(ahead !== undefined ? { prefetch: ahead } : {}),
      ...(common.configPath !== undefined ? { configPath: common.configPath } : {}),
      onWarning,
    });
    if (fix || config.fixOnCommit === true) {
      const { fixStaged } = await loadFixes();
      const restaged = await fixStaged({
        root: repoContext(io.cwd).root,
        staged: entries,
        config,
        validate,
        say: (line) => io.stderr(`noma-reconcile: ${line}\n`),
        env: io.env,
      });
      if (restaged.length > 0) {
        // The index changed: list what is staged again (the blobs read ahead are of the old index).
        entries = (await import("../../git/list-staged-files.js")).listStagedEntries(io.cwd);
        ahead = undefined;
      }
    }
    const { checkStaged } = await import("../../check/staged/check-staged.js");
    run = await checkStaged({ staged: entries, ...(ahead !== undefined ? { prefetch: ahead } : {}), ...common, config });
  } else {
    const ctx = repoContext(io.cwd);
    root = ctx.root;
    if (!ctx.inRepo && paths.length === 0) throw new UsageError("not inside a git repository: pass the .noma files or directories to check");
    if ((fix || fixDryRun) && !ctx.inRepo) throw new UsageError("--fix rewrites documents of a git repository: run it inside one");
    // Files named outside the repository are read where they are (containment is for writes).
    const { splitOutsidePaths, checkOutsidePaths } = await import("../../check/check-outside.js");
    const { inside, outside } = splitOutsidePaths(paths, ctx.root, io.cwd);
    if (inside.length > 0 || outside.length === 0) {
      const { checkWorktree } = await import("../../check/check-worktree.js");
      run = await checkWorktree({
        root: ctx.root,
        inRepo: ctx.inRepo,
        paths: inside,
        ...common,
        ...(io.prefetched !== undefined ? { prefetched: io.prefetched } : {}),
      });
    } else {
      const { loadConfigLazy } = await import("../../config/load-config-lazy.js");
      const read = (p: string): string | null => (ctx.inRepo ? readOrNull(join(ctx.root, p), p) : null);
      run = {
        targets: [],
        results: [],
        config: await loadConfigLazy({ cwd: io.cwd, read, ...(common.configPath !== undefined ? { override: common.configPath } : {}), onWarning }),
      };
    }
    if ((fix || fixDryRun) && outside.length > 0)
      throw new UsageError(`--fix writes, so every path must be inside the repository; ${outside[0]} is not (plain \`check\` reads it where it is)`);
    if (outside.length > 0) {
      const more = await checkOutsidePaths({ paths: outside, cwd: io.cwd, config: run.config, document });
      run = { ...run, results: [...run.results, ...more].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)) };
    }
    if (fix || fixDryRun || format === "json") {
      const fixes = await loadFixes();
      if (fix || fixDryRun) {
        const done = fixes.fixDocuments(run.results, { root: ctx.root, inRepo: ctx.inRepo, validate, dryRun: fixDryRun, format, io });
        fixReport = done.report;
        // The report is of the documents as --fix left them.
        if (done.written && (inside.length > 0 || outside.length === 0)) {
          const { checkWorktree } = await import("../../check/check-worktree.js");
          run = await checkWorktree({ root: ctx.root, inRepo: ctx.inRepo, paths: inside, ...common });
        }
      }
      if (format === "json" && !fix) fixes.attachFixes(run.results, { root: ctx.root, inRepo: ctx.inRepo, validate });
    }
  }

  const isStaged = staged !== undefined;
  // Paths named that hold nothing check judges: said, not passed over as "no issues".
  if (!isStaged && paths.length > 0) {
    if (run.results.length === 0) {
      // Named, but the configuration's exclude takes all of it out: its decision, not a mistake.
      const excluded = (run.excluded ?? []).length;
      const line =
        excluded > 0
          ? `nothing to check in ${paths.join(", ")}: ${plural(excluded, "file")} there excluded by the configuration's exclude.\n`
          : `${NOTHING_IN}${paths.join(", ")}\n`;
      if (format === "text") io.stdout(line);
      else io.stderr(`noma-reconcile: ${line}`);
      if (excluded === 0) return 2;
      if (format === "text") return 0;
    } else for (const line of pathsWithNothing(paths, run, root, io.cwd)) io.stderr(`noma-reconcile: ${line}\n`);
  }
  if (!isStaged && paths.length === 0 && run.results.length === 0 && format === "text") {
    const excluded = (run.excluded ?? []).length;
    io.stdout(
      excluded > 0
        ? `nothing to check: the configuration's exclude leaves out all ${plural(excluded, "tracked file")} check would judge.\n`
        : "nothing to check: no tracked .noma documents, books, transcripts, sidecars or specs.\n",
    );
    return 0;
  }
  const title = isStaged ? "noma-reconcile check --staged" : "noma-reconcile check";
  const out = renderCheckReport(run.results, format, {
    color: useColor(options["color"], io.env, io.stdoutIsTTY),
    title,
    json: isStaged ? { staged: true } : fixReport,
    ...(maxWarnings !== undefined ? { maxWarnings } : {}),
  });
  // The dry run's stdout is the diff of the fixes (a patch); its report is the summary on stderr.
  if (!(fixDryRun && format === "text")) io.stdout(out.stdout);
  const summaryFile = io.env["GITHUB_STEP_SUMMARY"];
  if (out.summary !== null && summaryFile !== undefined && summaryFile !== "") appendFileSync(summaryFile, out.summary);
  const counts = countDiagnostics(run.results);
  if (format === "text") {
    // (Without --staged, an empty run was answered above.)
    if (run.results.length === 0) io.stderr("Nothing staged to check.\n");
    else
      io.stderr(
        `${plural(counts.files, "file")} checked${isStaged ? " (staged)" : ""}: ${plural(counts.errors, "error")}, ${plural(counts.warnings, "warning")}.\n`,
      );
  }
  const tooManyWarnings = maxWarnings !== undefined && counts.warnings > maxWarnings;
  if (tooManyWarnings) io.stderr(`${format === "text" ? "" : "noma-reconcile: "}${tooManyWarningsMessage(counts.warnings, maxWarnings!)}\n`);
  if (format === "text" && isStaged && (counts.errors > 0 || tooManyWarnings))
    io.stderr(
      `Commit blocked. Fix the ${counts.errors > 0 ? "errors" : "warnings"} above and stage the fixes; to skip this check once: git commit ` +
        `--no-verify (or ${SKIP_ENV}=1).\n`,
    );
  return counts.errors > 0 || tooManyWarnings ? 1 : 0;
}
