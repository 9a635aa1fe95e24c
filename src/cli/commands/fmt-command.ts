/**
 * `noma-reconcile fmt [paths…] [--check] [--diff]`: give `.noma` documents their canonical
 * layout (src/noma/format-noma.ts) — every tracked document, or those named (a directory: the
 * documents git knows under it). `--check` writes nothing and exits 1 when a document would
 * change. A document with a transcript gets a `format_document` record (format-document.ts).
 * Exit 0 done (or nothing to do), 1 `--check` found documents to format, 2 usage or runtime.
 */
import { formatJsonEnvelope } from "../../report/json-envelope.js";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadConfigLazy } from "../../config/load-config-lazy.js";
import { listNomaFiles } from "../../check/list-noma-files.js";
import { formatDocument, type FormatDocumentResult } from "../../editing/format-document.js";
import { documentTranscript, checkedPathKind } from "../../layout/checked-path.js";
import { assertNoSymlinkEscape, isSymlink } from "../../fsx/symlink-escape.js";
import { readTextFile } from "../../fsx/read-text-file.js";
import { hunksOfLineEdits, refineHunks, unifiedDiff } from "../../report/unified-diff.js";
import { UsageError } from "../../errors/noma-error.js";
import { TOOL_NAME } from "../../version.js";
import { plural } from "../../report/plural.js";
import { formatDiagnosticsText } from "../../report/format-text.js";
import type { CliIO } from "../cli-io.js";
import { applyLockTimeout } from "../lock-timeout-option.js";
import { choice, pathArg, repoContext } from "../repo-context.js";

export async function fmtCommand(paths: string[], options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = choice("format", options["format"], ["text", "json"] as const);
  const check = options["check"] === true;
  const diff = options["diff"] === true;
  const ctx = repoContext(io.cwd);
  if (!ctx.inRepo) throw new UsageError("fmt rewrites documents of a git repository: run it inside one (`check` reads files anywhere)");
  applyLockTimeout(options, ctx.root);
  const explicit = new Set<string>();
  for (const given of paths) {
    const rel = pathArg(given, ctx, io.cwd);
    const abs = join(ctx.root, rel);
    if (existsSync(abs) && statSync(abs).isFile()) {
      if (checkedPathKind(rel) !== "document") throw new UsageError(`${given}: fmt formats .noma documents; this is not one`);
      explicit.add(rel);
    }
  }
  if (options["watch"] === true) {
    if (!check) throw new UsageError("--watch needs --check: fmt --watch would rewrite the documents as you type them");
    if (diff) throw new UsageError("--watch says which documents became (un)formatted; drop --diff (fmt --check --diff shows the changes once)");
  }
  const config = await loadConfigLazy({
    cwd: io.cwd,
    read: (p) => {
      const abs = join(ctx.root, p);
      if (isSymlink(abs)) assertNoSymlinkEscape(ctx.root, p, "read it");
      try {
        return readTextFile(abs);
      } catch {
        return null;
      }
    },
    onWarning: (m) => io.stderr(`${TOOL_NAME}: ${m}\n`),
  });
  const excludedBy = config.exclude.length > 0 ? (await import("../../check/apply-exclude.js")).excludedBy : undefined;
  /** The documents to format, and all those listed before the configuration's exclude (listed again on every run of --watch). */
  const targets = (): { listed: string[]; documents: string[] } => {
    const listed = listNomaFiles(ctx.root, true, paths, io.cwd).filter((p) => checkedPathKind(p) === "document");
    if (excludedBy === undefined) return { listed, documents: listed };
    const excluded = excludedBy(config.exclude, explicit);
    return { listed, documents: listed.filter((p) => !excluded(p)) };
  };
  const { listed, documents } = targets();
  if (documents.length === 0 && paths.length > 0) {
    // Named paths that hold no document: said, and an error (a typo must not pass a CI step);
    // the configuration's exclude taking them all is its decision, not a mistake.
    const excluded = listed.length;
    const line =
      excluded > 0
        ? `nothing to format in ${paths.join(", ")}: ${plural(excluded, "document")} there excluded by the configuration's exclude\n`
        : `nothing to format in ${paths.join(", ")}: no .noma documents there\n`;
    if (format === "text") io.stdout(line);
    else io.stderr(`${TOOL_NAME}: ${line}`);
    if (excluded === 0) return 2;
    if (format === "text") return 0;
  }
  if (options["watch"] === true) {
    const { fmtCheckWatch } = await import("./fmt-check-watch.js");
    return fmtCheckWatch({
      root: ctx.root,
      io,
      format,
      // A tracked document deleted from the work tree is not there to format: left out, not an error.
      judge: () =>
        targets()
          .documents.filter((file) => existsSync(join(ctx.root, file)))
          .map((file) => ({ file, result: formatDocument(join(ctx.root, file), { check: true, root: ctx.root }) })),
    });
  }
  const results: Array<{ file: string; result: FormatDocumentResult }> = [];
  for (const file of documents) results.push({ file, result: formatDocument(join(ctx.root, file), { check, root: ctx.root }) });

  const changed = results.filter((r) => r.result.status === "formatted" || r.result.status === "would-format");
  const skipped = results.filter((r) => r.result.status === "skipped");
  // Documents fmt cannot read as text: the errors `check` reports for them (exit 1, as check).
  const errors = results.filter((r) => r.result.status === "error");
  const diffOf = (file: string, r: FormatDocumentResult): string =>
    unifiedDiff(file, r.before, r.after, refineHunks(r.before, r.after, hunksOfLineEdits(r.edits)));
  if (format === "json") {
    io.stdout(
      formatJsonEnvelope("fmt", {
        command: check ? "fmt --check" : "fmt",
        ok: errors.length === 0 && (!check || changed.length === 0),
        summary: {
          documents: results.length,
          [check ? "would_format" : "formatted"]: changed.length,
          unchanged: results.filter((r) => r.result.status === "unchanged").length,
          skipped: skipped.length,
          errors: errors.length,
        },
        result: {
          check,
          files: results.map(({ file, result: r }) => ({
            file,
            status: r.status,
            ...(r.code !== undefined ? { code: r.code } : {}),
            ...(r.pos !== undefined ? { pos: r.pos } : {}),
            ...(r.note !== undefined ? { note: r.note } : {}),
            ...(r.recorded ? { transcript: documentTranscript(file) } : {}),
            ...(diff && (r.status === "formatted" || r.status === "would-format") ? { diff: diffOf(file, r) } : {}),
          })),
        },
      }),
    );
  } else {
    if (errors.length > 0)
      io.stdout(
        formatDiagnosticsText(
          errors.map(({ file, result: r }) => ({
            file,
            diagnostics: [{ severity: "error", code: r.code!, message: r.note!, ...(r.pos !== undefined ? { pos: r.pos } : {}) }],
          })),
        ),
      );
    for (const { file, result: r } of results) {
      if (r.status === "error") continue;
      if (r.status === "skipped") io.stderr(`${TOOL_NAME}: skipped ${file}: ${r.note}\n`);
      else if (r.note !== undefined) io.stderr(`${TOOL_NAME}: ${file}: ${r.note}\n`);
      if (r.status !== "formatted" && r.status !== "would-format") continue;
      io.stdout(
        r.status === "would-format" ? `would reformat ${file}\n` : `formatted ${file}${r.recorded ? ` (recorded in ${documentTranscript(file)})` : ""}\n`,
      );
      if (diff) io.stdout(diffOf(file, r));
    }
    const n = results.length;
    const docs = plural(n, "document");
    const failed = errors.length > 0 ? `; ${plural(errors.length, "document")} cannot be formatted (see the errors above)` : "";
    if (n === 0) io.stdout("nothing to format: no tracked .noma documents (a new one is formatted once git knows it, or when named).\n");
    else if (check)
      io.stderr(
        changed.length === 0
          ? errors.length === n
            ? `${docs} checked: none can be formatted (see the errors above).\n`
            : `${docs} checked: ${errors.length > 0 ? "the others" : "all"} formatted${failed}.\n`
          : `${docs} checked: ${changed.length} would be reformatted; run \`${TOOL_NAME} fmt\` to format ${changed.length === 1 ? "it" : "them"}${failed}.\n`,
      );
    else
      io.stderr(
        `${docs} checked: ${changed.length} formatted, ${n - changed.length - skipped.length - errors.length} already ` +
          `formatted${skipped.length > 0 ? `, ${skipped.length} skipped` : ""}${failed}.\n`,
      );
  }
  return errors.length > 0 || (check && changed.length > 0) ? 1 : 0;
}
