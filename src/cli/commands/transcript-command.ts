/**
 * `noma-reconcile transcript verify <doc> [--base FILE] [--strict]`: check a
 * document's transcript record by record, its hash chain, its state chain and
 * the document on disk; with --base, replay every applied op byte for byte.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { transcriptPath } from "../../patch/patch-document.js";
import { verifyTranscript } from "../../transcript/verify-transcript.js";
import { UsageError } from "../cli-error.js";
import type { CliIO } from "../cli-io.js";
import { choice, pathArg, repoContext } from "../repo-context.js";

export async function transcriptCommand(action: string, doc: string | undefined, options: Record<string, unknown>, io: CliIO): Promise<number> {
  if (action !== "verify") throw new UsageError(`unknown transcript action "${action}" (expected: verify)`);
  if (doc === undefined) throw new UsageError("transcript verify needs the document path, e.g. `noma-reconcile transcript verify docs/plan.noma`");
  const format = choice("format", options["format"], ["text", "json"] as const);
  const ctx = repoContext(io.cwd);
  const file = pathArg(doc, ctx, io.cwd);
  const tFile = transcriptPath(file);
  if (!existsSync(join(ctx.root, tFile))) throw new UsageError(`${tFile}: no transcript (documents get one when they are patched through the protocol)`);
  const transcript = readFileSync(join(ctx.root, tFile), "utf8");
  const docAbs = join(ctx.root, file);
  const docText = existsSync(docAbs) ? readFileSync(docAbs, "utf8") : null;
  let base: string | undefined;
  if (options["base"] !== undefined) {
    const b = pathArg(String(options["base"]), ctx, io.cwd);
    if (!existsSync(join(ctx.root, b))) throw new UsageError(`--base ${String(options["base"])}: no such file`);
    base = readFileSync(join(ctx.root, b), "utf8");
  }
  const engine = base !== undefined ? (await import("../../patch/apply-patch.js")).applyPatch : undefined;
  const report = verifyTranscript(transcript, docText, { strict: options["strict"] === true, ...(base !== undefined && engine !== undefined ? { replay: { base, engine } } : {}) });
  if (docText === null) report.findings.push({ severity: "error", code: "transcript-document-missing", message: `${file} does not exist.` });
  const ok = !report.findings.some((f) => f.severity === "error");
  if (format === "json") {
    io.stdout(`${JSON.stringify({ schema: "noma-reconcile/transcript-verify@1", file, transcript: tFile, ok, records: report.records, applied: report.applied, final_sha256: report.finalSha256, findings: report.findings }, null, 2)}\n`);
  } else {
    for (const f of report.findings) io.stdout(`${f.severity.toUpperCase()} [${f.code}] ${f.line !== undefined ? `${tFile}:${f.line}` : file}: ${f.message}\n`);
    if (!report.findings.some((f) => f.severity !== "info")) io.stdout(`✓ ${tFile}: ${report.records} records (${report.applied} applied), chain intact, document matches${base !== undefined ? ", replay reproduces it byte for byte" : ""}.\n`);
  }
  return ok ? 0 : 1;
}
