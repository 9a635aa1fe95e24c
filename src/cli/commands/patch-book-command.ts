/**
 * `noma-reconcile patch book.noma.yml --op …`: one op list across a book's chapters
 * (patchBook): each op to the chapter owning its target, all applied or none, each chapter's
 * transcript getting its records. Exit 0 applied or noop, 1 rejected.
 */
import { join } from "node:path";
import { patchBook, type PatchBookResult } from "../../editing/patch-book.js";
import { UsageError } from "../../errors/noma-error.js";
import { formatJsonEnvelope } from "../../report/json-envelope.js";
import type { Actor } from "../../transcript/transcript-record.js";
import { diagnosticChangesJson } from "../../validate/diagnostic-change.js";
import { TOOL_NAME } from "../../version.js";
import type { CliIO } from "../cli-io.js";

export function patchBookCommand(
  file: string,
  ops: unknown[],
  options: Record<string, unknown>,
  ctx: { root: string },
  actor: Actor,
  format: "text" | "json",
  io: CliIO,
): number {
  for (const flag of ["expectedSha", "baseSha256"] as const)
    if (options[flag] !== undefined)
      throw new UsageError(
        `--${flag === "expectedSha" ? "expected-sha" : "base-sha256"} names one document's state; a book has one per chapter: ` +
          "give each op a baseHash (checked against its chapter's block)",
      );
  const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
  const dryRun = options["dryRun"] === true;
  const r = patchBook(join(ctx.root, file), ops, {
    actor,
    root: ctx.root,
    strict: options["strict"] === true,
    dryRun,
    ...(str(options["reason"]) !== undefined ? { reason: str(options["reason"])! } : {}),
    ...(str(options["parentOpId"]) !== undefined ? { parentOpId: str(options["parentOpId"])! } : {}),
  });
  io.stdout(format === "json" ? renderJson(file, r, dryRun) : renderText(file, r, dryRun));
  return r.result === "rejected" ? 1 : 0;
}

function renderText(file: string, r: PatchBookResult, dryRun: boolean): string {
  const prefix = dryRun ? "dry run: " : "";
  const lines: string[] = [];
  if (r.recovered.length > 0) lines.push(`recovered: an interrupted book transaction was finished first (${r.recovered.join(", ")})`);
  if (r.result === "rejected") {
    const e = r.error!;
    lines.push(
      `${prefix}rejected: ${e.code}: ${e.message.replace(/\.$/, "")} (op ${e.opIndex + 1})` +
        `${e.file !== undefined ? ` in ${e.file}` : ""}; no chapter of ${file} was written`,
    );
  } else if (r.result === "noop") lines.push(`${prefix}noop: no chapter of ${file} changed`);
  else {
    const changed = r.chapters.filter((c) => c.outcome.result === "applied").length;
    lines.push(`${prefix}applied ${r.chapters.reduce((n, c) => n + c.opIndexes.length, 0)} ops to ${changed} chapter${changed === 1 ? "" : "s"} of ${file}`);
  }
  for (const c of r.chapters) {
    const o = c.outcome;
    lines.push(
      `  ${c.file}: ${o.result} (${o.preSha256.slice(0, 8)} → ${o.postSha256.slice(0, 8)}); validation: pre ${o.preValidation}, post ${o.postValidation}`,
    );
    o.ops.forEach((x, i) => {
      const op = x.op as Record<string, unknown> | null;
      const target = op?.["id"] ?? op?.["target"] ?? op?.["parent"] ?? op?.["from"];
      lines.push(
        `    ${c.opIndexes[i]! + 1}. ${String(op?.["op"])}${target !== undefined ? ` ${String(target)}` : ""}: ` +
          `${x.result}${x.error !== undefined ? ` (${x.error.code})` : ""}`,
      );
    });
    for (const d of o.postDiagnostics.filter((x) => x.severity === "error")) lines.push(`    error: [${d.code}] ${d.message}`);
  }
  const records = r.chapters.reduce((n, c) => n + c.records.length, 0);
  lines.push(
    dryRun
      ? `${TOOL_NAME}: dry run, nothing written`
      : `transcripts: ${records} record${records === 1 ? "" : "s"} appended across ${r.chapters.length} chapter${r.chapters.length === 1 ? "" : "s"}`,
  );
  return `${lines.join("\n")}\n`;
}

function renderJson(file: string, r: PatchBookResult, dryRun: boolean): string {
  return formatJsonEnvelope("patch-book", {
    command: "patch",
    ok: r.result !== "rejected",
    summary: {
      outcome: r.result,
      records: r.chapters.reduce((n, c) => n + c.records.length, 0),
      diagnostics: r.chapters.reduce((n, c) => n + c.outcome.postDiagnostics.length, 0),
    },
    result: {
      file,
      dry_run: dryRun,
      outcome: r.result,
      ...(r.error !== undefined
        ? { error: { code: r.error.code, message: r.error.message, op_index: r.error.opIndex, ...(r.error.file !== undefined ? { file: r.error.file } : {}) } }
        : {}),
      recovered: r.recovered,
      chapters: r.chapters.map((c) => ({
        file: c.file,
        op_indexes: c.opIndexes,
        outcome: c.outcome.result,
        pre_sha256: c.outcome.preSha256,
        post_sha256: c.outcome.postSha256,
        pre_validation: c.outcome.preValidation,
        post_validation: c.outcome.postValidation,
        diagnostics: c.outcome.postDiagnostics,
        diagnostic_changes: diagnosticChangesJson(c.outcome),
        records: c.records,
      })),
    },
  });
}
