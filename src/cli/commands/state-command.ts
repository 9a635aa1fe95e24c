/**
 * `state snapshot`, `state show`, `state reset`: the committed snapshot
 * `.notarai/reconciliation_state.json`.
 */
import { snapshotState } from "../../reconcile/snapshot-state.js";
import { resetState, showState } from "../../reconcile/state.js";
import { ancestryWarning, type SnapshotAncestry } from "../../reconcile/read-snapshot.js";
import { UsageError } from "../../errors/noma-error.js";
import { prepareShortRunWasm } from "../startup/prepare-short-run-wasm.js";
import type { CliIO } from "../cli-io.js";
import { actionArg } from "../action-arg.js";
import { callTool, envelope, formatArg, requireRepo, warningSink } from "./reconcile-command.js";
import { plural } from "../../report/plural.js";
import { applyLockTimeout } from "../lock-timeout-option.js";

/** What `state show` adds after the snapshot's commit, by where that commit stands relative to HEAD. */
const ANCESTRY_NOTE: Readonly<Record<SnapshotAncestry, string>> = {
  ancestor: " (an ancestor of HEAD)",
  "not-ancestor": " (NOT an ancestor of HEAD)",
  "unknown-commit": " (unknown here)",
  "no-git-hash": "",
};

export async function stateCommand(action: string, extra: string[], options: Record<string, unknown>, io: CliIO): Promise<number> {
  const what = actionArg("state", action, ["snapshot", "show", "reset"] as const);
  if (extra.length > 0) throw new UsageError(`\`state ${what}\` takes no further arguments`);
  const format = formatArg(options);
  const ctx = requireRepo(io);
  applyLockTimeout(options, ctx.root);
  const { warnings, onWarning } = warningSink(io);
  if (what === "snapshot") {
    await prepareShortRunWasm({ hashing: false, env: io.env });
    const r = await callTool(() => snapshotState(ctx.root, { onWarning }));
    if (format === "json") io.stdout(envelope("state-snapshot", true, r, warnings));
    else
      io.stdout(
        `Wrote .notarai/reconciliation_state.json: ${plural(r.files, "file fingerprint")}, ${plural(r.specs, "spec fingerprint")}` +
          `${r.git_hash !== "" ? ` at ${r.git_hash}` : ""}.\n`,
      );
    return 0;
  }
  if (what === "reset") {
    const r = await callTool(() => resetState(ctx.root));
    if (format === "json") io.stdout(envelope("state-reset", true, r));
    else io.stdout(r.removed ? "Removed .notarai/reconciliation_state.json.\n" : "No snapshot to remove.\n");
    return 0;
  }
  const r = await callTool(() => showState(ctx.root));
  if (r.snapshot !== null && r.ancestry !== null) {
    const w = ancestryWarning(r.snapshot, r.ancestry);
    if (w !== null) onWarning(w);
  }
  if (r.problem !== null) onWarning(r.problem);
  if (format === "json") io.stdout(envelope("state-show", r.problem === null, r, warnings));
  else if (!r.exists) io.stdout("No snapshot (.notarai/reconciliation_state.json); `noma-reconcile state snapshot` writes one.\n");
  else if (r.snapshot !== null) {
    const l = r.snapshot.last_reconciliation;
    io.stdout(
      `${[
        `snapshot: ${r.path}`,
        `taken: ${r.timestamp ?? l.timestamp}${r.timestamp !== null && r.timestamp !== l.timestamp ? ` (written as ${l.timestamp})` : ""}`,
        `commit: ${l.git_hash ?? "-"}${r.ancestry !== null ? ANCESTRY_NOTE[r.ancestry] : ""}`,
        `branch: ${l.branch ?? "-"}`,
        `written by: ${r.snapshot.cli_version ?? "-"}`,
        `fingerprints: ${plural(r.files, "file")}, ${plural(r.specs, "spec")}`,
      ].join("\n")}\n`,
    );
  }
  return r.problem !== null ? 2 : 0;
}
