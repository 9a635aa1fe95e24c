/**
 * `affected --base REF` (list_affected_specs): files changed since the
 * merge-base of REF and HEAD, and the specs that govern them. git's scan starts
 * before the library (specs, YAML, schemas, globs) is loaded, so it runs meanwhile.
 */
import { startAffectedScan } from "../../reconcile/start-affected-scan.js";
import { UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { callTool, count, envelope, formatArg, requireRepo, warningSink } from "./reconcile-command.js";

export async function affectedCommand(options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = formatArg(options);
  if (typeof options["base"] !== "string" || options["base"] === "") throw new UsageError("--base <ref> is required (the branch to compare with, e.g. main)");
  const ctx = requireRepo(io);
  const { warnings, onWarning } = warningSink(io);
  const base = options["base"] as string;
  const r = await callTool(async () => {
    const scan = startAffectedScan(ctx.root, base, { onDeepen: (n) => io.stderr(`shallow clone: fetching ${n} more commits to find the merge-base…\n`) });
    let listAffectedSpecs: typeof import("../../reconcile/list-affected-specs.js").listAffectedSpecs;
    try {
      ({ listAffectedSpecs } = await import("../../reconcile/list-affected-specs.js"));
    } catch (e) {
      scan.abort.abort();
      throw e;
    }
    return listAffectedSpecs(ctx.root, { baseBranch: base }, { onWarning, scan });
  });
  if (format === "json") io.stdout(envelope("affected", true, r, warnings));
  else {
    let out = "";
    for (const s of r.affected_specs) {
      out += `${s.spec_path}  (${count(s.behaviors.length, "behavior")}, ${count(s.constraints.length, "constraint")}, ${count(s.invariants.length, "invariant")})\n`;
      for (const m of s.matched_files) out += `  ${m.path}  (${m.category === "spec" ? "the spec's own file" : `${m.category}, via ${m.glob}`})\n`;
    }
    io.stdout(out);
    io.stderr(
      `${count(r.changed_files.length, "changed file")} since the merge-base with ${options["base"] as string}; ${count(r.affected_specs.length, "affected spec")}.\n`,
    );
  }
  return 0;
}
