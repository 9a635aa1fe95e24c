/**
 * `noma-reconcile transcript verify <doc> [--base FILE] [--strict]`: check a
 * document's transcript record by record, its hash chain, its state chain and
 * the document on disk; with --base, replay every applied op byte for byte.
 *
 * `noma-reconcile transcript accept <doc> --reason TEXT`: acknowledge the edits
 * made to the document outside the protocol (accept-document.ts). Exit 0 when
 * acknowledgements were appended, 2 when refused (nothing written).
 */
import { formatJsonEnvelope } from "../../report/json-envelope.js";
import { readRegularFileIfPresent } from "../../fsx/read-regular-file.js";
import { decodeText } from "../../fsx/utf8-text.js";
import { plural } from "../../report/plural.js";
import { join } from "node:path";
import { transcriptPath } from "../../editing/patch-document.js";
import { verifyTranscript } from "../../transcript/verify-transcript.js";
import { UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { actionArg } from "../action-arg.js";
import { applyLockTimeout } from "../lock-timeout-option.js";
import { choice, pathArg, repoContext } from "../repo-context.js";

export async function transcriptCommand(action: string, doc: string | undefined, options: Record<string, unknown>, io: CliIO): Promise<number> {
  actionArg("transcript", action, ["verify", "accept"] as const);
  if (doc === undefined)
    throw new UsageError(
      `transcript ${action} needs the document path, e.g. \`noma-reconcile transcript ${action} ` +
        `docs/plan.noma${action === "accept" ? " --reason 'fixed a typo by hand'" : ""}\``,
    );
  if (action === "accept") return acceptCommand(doc, options, io);
  const format = choice("format", options["format"], ["text", "json"] as const);
  const ctx = repoContext(io.cwd);
  const file = pathArg(doc, ctx, io.cwd);
  const tFile = transcriptPath(file);
  // Only regular files, never a blocking open (a FIFO is refused), never decoded with U+FFFD.
  const readText = (rel: string): string | null => {
    const bytes = readRegularFileIfPresent(join(ctx.root, rel), rel);
    return bytes === null ? null : decodeText(bytes, rel);
  };
  const transcript = readText(tFile);
  if (transcript === null) throw new UsageError(`${tFile}: no transcript (documents get one when they are patched through the protocol)`);
  const docText = readText(file);
  let base: string | undefined;
  if (options["base"] !== undefined) {
    const b = pathArg(String(options["base"]), ctx, io.cwd);
    const text = readText(b);
    if (text === null) throw new UsageError(`--base ${String(options["base"])}: no such file`);
    base = text;
  }
  // fmt's format_document records replay too (their edits are in the record).
  const apply = base !== undefined ? (await import("../../patch/apply-patch.js")).applyPatch : undefined;
  const engine = apply !== undefined ? (text: string, ops: unknown[]) => apply(text, ops, { formatOps: true, replayRecorded: true }) : undefined;
  const report = verifyTranscript(transcript, docText, {
    strict: options["strict"] === true,
    ...(base !== undefined && engine !== undefined ? { replay: { base, engine } } : {}),
  });
  if (docText === null) report.findings.push({ severity: "error", code: "transcript-document-missing", message: `${file} does not exist.` });
  const ok = !report.findings.some((f) => f.severity === "error");
  if (format === "json") {
    io.stdout(
      formatJsonEnvelope("transcript-verify", {
        ok,
        summary: { records: report.records, applied: report.applied, findings: report.findings.length },
        result: { file, transcript: tFile, records: report.records, applied: report.applied, final_sha256: report.finalSha256, findings: report.findings },
      }),
    );
  } else {
    for (const f of report.findings) io.stdout(`${f.severity.toUpperCase()} [${f.code}] ${f.line !== undefined ? `${tFile}:${f.line}` : file}: ${f.message}\n`);
    const acknowledged = report.outsideEdits.filter((e) => e.acknowledgedOn !== undefined).length;
    if (!report.findings.some((f) => f.severity !== "info"))
      io.stdout(
        `✓ ${tFile}: ${plural(report.records, "record")} (${report.applied} applied), chain intact, document ` +
          `matches${acknowledged > 0 ? ` (${plural(acknowledged, "outside edit")} acknowledged)` : ""}` +
          `${base !== undefined ? ", replay reproduces it byte for byte" : ""}.\n`,
      );
  }
  return ok ? 0 : 1;
}

async function acceptCommand(doc: string, options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = choice("format", options["format"], ["text", "json"] as const);
  const reason = options["reason"];
  // The argument parser turns a number-like value (also "" and blanks) into a number: not a reason.
  if (typeof reason !== "string" || reason.trim().length === 0) {
    throw new UsageError(
      `transcript accept needs --reason TEXT: why the edit made outside the protocol is accepted (it is stored in the ` +
        `record)${typeof reason === "number" ? `; got ${JSON.stringify(String(reason))}, which reads as a number` : ""}`,
    );
  }
  const ctx = repoContext(io.cwd);
  applyLockTimeout(options, ctx.root);
  const file = pathArg(doc, ctx, io.cwd);
  const { actorFromOptions } = await import("./actor-from-options.js");
  const { acceptOutsideEdits } = await import("../../editing/accept-document.js");
  const actor = actorFromOptions(options, ctx.root, io.env);
  const { worktreeChapterLookup } = await import("../../check/worktree-books.js");
  const validate = { resolveOutside: worktreeChapterLookup(ctx.root, ctx.inRepo, file) };
  const result = acceptOutsideEdits(join(ctx.root, file), { actor, reason, label: file, root: ctx.root, validate });
  const tFile = transcriptPath(file);
  if (format === "json") {
    const accepted = result.accepted.map((e) => ({
      recorded_sha256: e.recordedSha256,
      accepted_sha256: e.acceptedSha256,
      ...(e.gap !== undefined ? { gap_line: e.gap.line, gap_op_id: e.gap.opId } : {}),
    }));
    io.stdout(
      formatJsonEnvelope("transcript-accept", {
        ok: true,
        summary: { accepted: accepted.length },
        result: { file, transcript: tFile, document_sha256: result.documentSha256, accepted, records: result.records },
      }),
    );
    return 0;
  }
  const lines = result.accepted.map((e) => {
    const states = `${e.recordedSha256.slice(0, 8)} → ${e.acceptedSha256.slice(0, 8)}`;
    return e.gap === undefined
      ? `accepted: ${file} as it is now (${states}), edited outside the protocol`
      : `accepted: the edit made outside the protocol before ${tFile}:${e.gap.line} (${states})`;
  });
  lines.push(`transcript: ${plural(result.lines.length, "acknowledgement")} appended to ${tFile} (actor ${actor.kind} ${actor.name})`);
  io.stdout(`${lines.join("\n")}\n`);
  return 0;
}
