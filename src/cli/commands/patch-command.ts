/**
 * `noma-reconcile patch <doc> (--op JSON | --ops FILE)`: apply an op list
 * atomically, record it in `<doc>.patches`, print the outcome.
 * Exit 0 applied or noop, 1 rejected, 2 usage.
 */
import { formatJsonEnvelope } from "../../report/json-envelope.js";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { worktreeChapterLookup } from "../../check/worktree-books.js";
import { isBookManifestPath } from "../../editing/book-manifest-path.js";
import { patchDocument, type PatchDocumentResult } from "../../editing/patch-document.js";
import { formatDiagnosticsText } from "../../report/format-text.js";
import type { Diagnostic } from "../../validate/diagnostic.js";
import { diagnosticChangesJson, type DiagnosticChange } from "../../validate/diagnostic-change.js";
import { TOOL_NAME } from "../../version.js";
import { UsageError } from "../../errors/noma-error.js";
import { useColor, type CliIO } from "../cli-io.js";
import { opListCollector, shortRunJitBeforeParse } from "../startup/prepare-short-run-jit.js";
import { choice, pathArg, repoContext } from "../repo-context.js";
import { applyLockTimeout } from "../lock-timeout-option.js";
import { actorFromOptions } from "./actor-from-options.js";

function parseOps(text: string, source: string): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${source} is not valid JSON: ${(e as Error).message}`);
  }
  const ops = Array.isArray(value) ? value : [value];
  if (ops.length === 0) throw new UsageError(`${source} holds an empty op list; give at least one op.`);
  return ops;
}

function str(v: unknown): string | undefined {
  return v === undefined || v === null || v === false ? undefined : String(v);
}

export async function patchCommand(doc: string, options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = choice("format", options["format"], ["text", "json"] as const);
  const op = str(options["op"]);
  const opsFile = str(options["ops"]);
  if ((op === undefined) === (opsFile === undefined)) throw new UsageError("give exactly one of --op '<json>' or --ops <file> (use --ops - for stdin)");
  const ctx = repoContext(io.cwd);
  applyLockTimeout(options, ctx.root);
  const file = pathArg(doc, ctx, io.cwd);
  let ops: unknown[];
  if (op !== undefined) ops = parseOps(op, "--op");
  else if (opsFile === "-") ops = parseOps(readFileSync(0, "utf8"), "stdin");
  else {
    let text: string;
    try {
      text = readFileSync(join(ctx.root, pathArg(opsFile!, ctx, io.cwd)), "utf8");
    } catch (e) {
      throw new UsageError(`--ops ${opsFile}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`);
    }
    ops = parseOps(text, opsFile!);
  }
  const actor = actorFromOptions(options, ctx.root, io.env);
  // A book: each op to the chapter that owns its target, all or nothing (patch-book.ts).
  if (isBookManifestPath(file)) return (await import("./patch-book-command.js")).patchBookCommand(file, ops, options, ctx, actor, format, io);
  for (const [flag, value] of [
    ["expected-sha", options["expectedSha"]],
    ["base-sha256", options["baseSha256"]],
  ] as const) {
    if (value !== undefined && !/^[0-9a-fA-F]{8,64}$/.test(String(value)))
      throw new UsageError(`--${flag} must be hex (8–64 characters); got "${String(value)}"`);
  }
  // V8 tuned for a short run when the document is large (prepare-short-run-jit.ts); a stat, as patchDocument reads it.
  try {
    shortRunJitBeforeParse(io.env)(statSync(join(ctx.root, file)).size);
  } catch {
    /* patchDocument reports a missing document */
  }
  // An op list makes a document of garbage per op: collected between ops (prepare-short-run-jit.ts).
  const afterOp = opListCollector(ops.length);
  // The read started by the bin (main.ts) is done by now (modules loaded meanwhile); patchDocument uses it only if the file is unchanged under its lock.
  if (io.prefetched !== undefined) await io.prefetched.settle();
  const result = patchDocument(join(ctx.root, file), ops, {
    ...(io.prefetched !== undefined ? { prefetched: io.prefetched } : {}),
    actor,
    root: ctx.root,
    ...(afterOp !== undefined ? { afterOp } : {}),
    // One patch per process: nothing to remember it for.
    reuse: false,
    // A chapter of a book is validated in its book (the manifests are listed only if a link does not resolve in the document).
    validate: { resolveOutside: worktreeChapterLookup(ctx.root, ctx.inRepo, file) },
    strict: options["strict"] === true,
    dryRun: options["dryRun"] === true,
    ...(str(options["expectedSha"]) !== undefined ? { expectedSha: str(options["expectedSha"])! } : {}),
    ...(str(options["baseSha256"]) !== undefined ? { baseSha256: str(options["baseSha256"])! } : {}),
    ...(str(options["reason"]) !== undefined ? { reason: str(options["reason"])! } : {}),
    ...(str(options["parentOpId"]) !== undefined ? { parentOpId: str(options["parentOpId"])! } : {}),
  });
  if (format === "json") io.stdout(renderJson(file, result, options["dryRun"] === true));
  else io.stdout(renderText(file, result, options["dryRun"] === true, useColor(options["color"], io.env, io.stdoutIsTTY), options["verbose"] === true));
  return result.outcome.result === "rejected" ? 1 : 0;
}

function opLabel(op: unknown): string {
  if (op === null || typeof op !== "object") return JSON.stringify(op);
  const o = op as Record<string, unknown>;
  const target = o["id"] ?? o["from"] ?? o["parent"] ?? o["target"];
  return `${String(o["op"])}${target !== undefined ? ` ${String(target)}` : ""}`;
}

/** At most this many diagnostics of each list are printed (--format json has them all). */
const SHOWN_CHANGES = 10;

/** The diagnostics the list introduced and resolved, with a count of the unchanged: a line, then a few of each. */
function changeLines(file: string, change: DiagnosticChange, color: boolean): string[] {
  const { introduced, resolved, unchanged } = change;
  const lines = [`diagnostics: ${count(introduced.length)} introduced, ${count(resolved.length)} resolved, ${count(unchanged)} unchanged`];
  const list = (title: string, diagnostics: readonly Diagnostic[]): void => {
    if (diagnostics.length === 0) return;
    lines.push(`  ${title}:`);
    const text = formatDiagnosticsText([{ file, diagnostics: diagnostics.slice(0, SHOWN_CHANGES) }], { color }).trimEnd();
    lines.push(text.replace(/^/gm, "    "));
    if (diagnostics.length > SHOWN_CHANGES) lines.push(`    … and ${count(diagnostics.length - SHOWN_CHANGES)} more (--format json lists every one)`);
  };
  list("introduced", introduced);
  list("resolved (where they were before the patch)", resolved);
  return lines;
}

/** `n` with thousands separated by commas (not toLocaleString: Intl costs ≈ 10 ms to set up). */
function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ",");
}

function renderText(file: string, r: PatchDocumentResult, dryRun: boolean, color: boolean, verbose: boolean): string {
  const o = r.outcome;
  const lines: string[] = [];
  const shas = `${o.preSha256.slice(0, 8)} → ${o.postSha256.slice(0, 8)}`;
  const prefix = dryRun ? "dry run: " : "";
  if (o.result === "applied")
    lines.push(
      `${prefix}applied ${o.ops.filter((x) => x.result === "applied").length} of ${o.ops.length} ops to ${file} (${shas}); validation: ` +
        `pre ${o.preValidation}, post ${o.postValidation}`,
    );
  else if (o.result === "noop") lines.push(`${prefix}noop: ${file} is unchanged (${o.preSha256.slice(0, 8)})`);
  else
    lines.push(
      `${prefix}rejected: ${o.error!.code}: ${o.error!.message.replace(/\.$/, "")}` +
        `${o.ops.length > 1 ? ` (op ${o.error!.opIndex + 1} of ${o.ops.length})` : ""}; ` +
        `nothing was written to ${file}`,
    );
  o.ops.forEach((x, i) => lines.push(`  ${i + 1}. ${opLabel(x.op)}: ${x.result}${x.error !== undefined ? ` (${x.error.code})` : ""}`));
  const shown = [...o.warnings, ...o.ops.flatMap((x) => x.diagnostics.filter((d) => d.code !== x.error?.code && d.code !== "op_list_aborted"))];
  // Without a sidecar every op gets the same advisory, which enforces nothing: said once, and only when asked.
  const advisories = shown.filter((d) => d.code === "capability-advisory");
  for (const w of r.capabilities === "absent" ? shown.filter((d) => d.code !== "capability-advisory") : shown)
    lines.push(`  ${w.severity}: [${w.code}] ${w.message}`);
  if (verbose && r.capabilities === "absent" && advisories.length > 0)
    lines.push(`  info: no capability sidecar (${file}.capabilities.yml): advisory only, nothing is enforced in v1.0`);
  if (o.result === "applied") lines.push(...changeLines(file, o.change, color));
  if (r.recovered !== undefined) {
    const [a, b] = r.recovered.lines;
    lines.push(
      `recovered: the patch recorded on ${a === b ? `line ${a}` : `lines ${a}–${b}`} of ${file}.patches never reached the document (its process ` +
        `stopped before the document write); a recover_interrupted record ${dryRun ? "would precede" : "precedes"} this patch's`,
    );
  }
  lines.push(
    dryRun ? `${TOOL_NAME}: dry run, nothing written` : `transcript: ${r.lines.length} record${r.lines.length === 1 ? "" : "s"} appended to ${file}.patches`,
  );
  return `${lines.join("\n")}\n`;
}

function renderJson(file: string, r: PatchDocumentResult, dryRun: boolean): string {
  const o = r.outcome;
  return formatJsonEnvelope("patch", {
    ok: o.result !== "rejected",
    summary: { outcome: o.result, records: r.records.length, diagnostics: o.postDiagnostics.length },
    result: {
      file,
      dry_run: dryRun,
      outcome: o.result,
      pre_sha256: o.preSha256,
      post_sha256: o.postSha256,
      pre_validation: o.preValidation,
      post_validation: o.postValidation,
      ...(o.error !== undefined ? { error: { code: o.error.code, message: o.error.message, op_index: o.error.opIndex } } : {}),
      diagnostics: o.postDiagnostics,
      diagnostic_changes: diagnosticChangesJson(o),
      records: r.records,
    },
  });
}
