/**
 * `mark-reconciled FILE… [--spec PATH]`: record files as reconciled at their
 * current content (for one spec, or for every spec governing each file).
 */
import { markReconciled } from "../../reconcile/mark-reconciled.js";
import { UsageError } from "../cli-error.js";
import { prepareShortRunWasm } from "../../cache/wasm-tiering.js";
import type { CliIO } from "../cli-io.js";
import { pathArg } from "../repo-context.js";
import { callTool, count, envelope, formatArg, requireRepo, specArg, warningSink } from "./reconcile-command.js";

export async function markReconciledCommand(files: string[], options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = formatArg(options);
  if (files.length === 0) throw new UsageError("give at least one file to mark");
  const ctx = requireRepo(io);
  const rels = files.map((f) => pathArg(f, ctx, io.cwd));
  const specPath = typeof options["spec"] === "string" ? specArg(options["spec"], ctx, io.cwd) : undefined;
  await prepareShortRunWasm({ hashing: true, env: io.env });
  const { warnings, onWarning } = warningSink(io);
  const r = await callTool(() => markReconciled(ctx.root, specPath !== undefined ? { files: rels, specPath } : { files: rels }, { onWarning }));
  if (format === "json") io.stdout(envelope("mark-reconciled", true, r, warnings));
  else io.stdout(`Marked ${count(r.updated, "file")} as reconciled${specPath !== undefined ? ` for ${specPath}` : ""}.\n`);
  return 0;
}
