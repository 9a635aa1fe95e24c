/**
 * `cache status` and `cache clear`.
 */
import { cacheStats } from "../../cache/cache-stats.js";
import { clearCache } from "../../reconcile/clear-cache.js";
import { UsageError } from "../../errors/noma-error.js";
import { prepareShortRunWasm } from "../startup/prepare-short-run-wasm.js";
import type { CliIO } from "../cli-io.js";
import { actionArg } from "../action-arg.js";
import { callTool, envelope, formatArg, requireRepo } from "./reconcile-command.js";
import { applyLockTimeout } from "../lock-timeout-option.js";

export async function cacheCommand(action: string, extra: string[], options: Record<string, unknown>, io: CliIO): Promise<number> {
  const what = actionArg("cache", action, ["status", "clear"] as const);
  if (extra.length > 0) throw new UsageError(`\`cache ${what}\` takes no further arguments`);
  const format = formatArg(options);
  const ctx = requireRepo(io);
  applyLockTimeout(options, ctx.root);
  await prepareShortRunWasm({ hashing: false, env: io.env });
  if (what === "clear") {
    const r = await callTool(() => clearCache(ctx.root));
    if (format === "json") io.stdout(envelope("cache-clear", true, r));
    else io.stdout(r.cleared ? "Cleared the reconciliation cache: every governed change counts as unreconciled again.\n" : "No cache to clear.\n");
    return 0;
  }
  const s = await callTool(() => cacheStats(ctx.root));
  if (format === "json")
    io.stdout(envelope("cache-status", s.status === "ok" || s.status === "absent" || s.status === "legacy", s, s.warning !== null ? [s.warning] : []));
  else {
    const lines = [
      `cache: ${s.path}`,
      `status: ${s.status}${s.status === "legacy" ? " (written by NotarAI; its rows count for every spec)" : ""}`,
      `size: ${s.bytes} bytes`,
      `schema version: ${s.schema_version ?? "-"}`,
      `reconciled rows: ${s.rows.reconciled} (NotarAI file_cache rows: ${s.rows.file_cache})`,
      `hash memo: ${s.rows.blob_hashes} blob ids, ${s.rows.stat_hashes} stat signatures`,
      ...Object.entries(s.specs).map(([spec, n]) => `  ${spec === "*" ? "* (every spec)" : spec}: ${n}`),
    ];
    io.stdout(`${lines.join("\n")}\n`);
    if (s.warning !== null) io.stderr(`warning: ${s.warning}\n`);
  }
  return 0;
}
