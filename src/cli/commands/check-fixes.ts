/**
 * The fixes of `check`: `--format json` gives each diagnostic that has a safe fix a `fix`
 * field ({description, ops}: the patch ops that apply it); `--fix` applies them
 * (fix-document.ts) and says what it fixed; `--fix-dry-run` prints the unified diff of what
 * `--fix` would change. Loaded only for those (the document-fixes module tries each fix
 * through the patch engine).
 */
import { join } from "node:path";
import { worktreeChapterLookup } from "../../check/worktree-books.js";
import { documentFixes, FIXABLE_CODES, type Fix } from "../../editing/document-fixes.js";
import { fixDocument, type FixDocumentResult } from "../../editing/fix-document.js";
import { readRegularFile } from "../../fsx/read-regular-file.js";
import { decodeText } from "../../fsx/utf8-text.js";
import { checkedPathKind, documentTranscript } from "../../layout/checked-path.js";
import type { FileDiagnostics } from "../../report/file-diagnostics.js";
import { unifiedDiff } from "../../report/unified-diff.js";
import type { Diagnostic } from "../../validate/diagnostic.js";
import type { ValidateOptions } from "../../validate/validate-noma.js";
import type { CliIO } from "../cli-io.js";

export { fixStaged } from "../../check/staged/fix-staged.js";

interface Where {
  root: string;
  inRepo: boolean;
  /** The check's options (profile, ignored rules, stale window); each document's book is added. */
  validate: ValidateOptions;
}

/** The judged documents that have a diagnostic of a code with fixes. */
function candidates(results: readonly FileDiagnostics[]): FileDiagnostics[] {
  return results.filter((r) => checkedPathKind(r.file) === "document" && r.diagnostics.some((d) => FIXABLE_CODES.has(d.code)));
}

function validateFor(where: Where, file: string): ValidateOptions {
  return { ...where.validate, resolveOutside: worktreeChapterLookup(where.root, where.inRepo, file) };
}

/** Give each diagnostic that has a fix its `fix` field (what `--format json` prints). */
export function attachFixes(results: readonly FileDiagnostics[], where: Where): void {
  for (const r of candidates(results)) {
    let text: string;
    try {
      text = decodeText(readRegularFile(join(where.root, r.file), r.file), r.file);
    } catch {
      continue;
    }
    for (const [i, fix] of documentFixes(text, r.diagnostics, { validate: validateFor(where, r.file) }))
      (r.diagnostics[i] as Diagnostic & { fix?: Fix }).fix = fix;
  }
}

export interface FixRun {
  /** Extra fields of the JSON envelope: `fixed` (or `would_fix`). */
  report: Record<string, unknown>;
  /** Whether any document was written. */
  written: boolean;
}

/** Apply (or, `dryRun`, show) the fixes of the judged documents. */
export function fixDocuments(results: readonly FileDiagnostics[], options: Where & { dryRun: boolean; format: string; io: CliIO }): FixRun {
  const { io, dryRun } = options;
  const done: Array<{ file: string; result: FixDocumentResult }> = [];
  for (const r of candidates(results)) {
    const result = fixDocument(join(options.root, r.file), { root: options.root, dryRun, validate: validateFor(options, r.file) });
    if (result.fixes.length > 0 || result.skipped !== undefined) done.push({ file: r.file, result });
  }
  const text = options.format === "text";
  let fixes = 0;
  const entries = done.map(({ file, result }) => {
    fixes += result.skipped === undefined ? result.fixes.length : 0;
    const diff = dryRun ? unifiedDiff(file, result.before, result.after) : "";
    if (text) {
      if (result.skipped !== undefined) io.stderr(`noma-reconcile: not fixed: ${file}: ${result.skipped}\n`);
      else {
        const n = result.fixes.length;
        io.stderr(
          `${dryRun ? "would fix" : "fixed"} ${file}: ${n} ${n === 1 ? "fix" : "fixes"}` +
            `${result.recorded ? ` (recorded in ${documentTranscript(file)})` : ""}\n${result.fixes
              .map((f) => `  [${f.code}]${f.line !== undefined ? ` line ${f.line}` : ""}: ${f.description}\n`)
              .join("")}`,
        );
      }
      if (dryRun) io.stdout(diff);
    }
    return {
      file,
      ...(result.skipped !== undefined ? { skipped: result.skipped } : {}),
      fixes: result.fixes.map((f) => ({ code: f.code, ...(f.line !== undefined ? { line: f.line } : {}), description: f.description, ops: f.ops })),
      ...(result.recorded ? { transcript: documentTranscript(file) } : {}),
      ...(dryRun ? { diff } : {}),
    };
  });
  if (text && fixes === 0) io.stderr(`noma-reconcile: nothing to fix${dryRun ? "" : " (no diagnostic has a safe mechanical fix)"}.\n`);
  return { report: { [dryRun ? "would_fix" : "fixed"]: entries }, written: !dryRun && done.some((d) => d.result.written) };
}
