/**
 * `affected [--base REF]` (list_affected_specs): files changed since the
 * merge-base of the base (found as `ci` finds it when not given) and HEAD, and the specs that govern them. git's scan starts
 * before the library (specs, YAML, schemas, globs) is loaded, so it runs meanwhile.
 */
import { startAffectedScan } from "../../reconcile/start-affected-scan.js";
import type { CliIO } from "../cli-io.js";
import { baseArg, baseSummary, callTool, envelope, formatArg, requireRepo, warningSink } from "./reconcile-command.js";
import { plural } from "../../report/plural.js";

export async function affectedCommand(options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = formatArg(options);
  const ctx = requireRepo(io);
  const chosen = baseArg(options, ctx.root, io.env);
  const base = chosen.ref;
  if (chosen.source !== "option") io.stderr(`base: ${base} (${chosen.reason}; --base overrides)\n`);
  const { warnings, onWarning } = warningSink(io);
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
  if (format === "json")
    io.stdout(
      envelope("affected", true, r, warnings, { base: baseSummary(chosen), changed_files: r.changed_files.length, affected_specs: r.affected_specs.length }),
    );
  else {
    let out = "";
    for (const s of r.affected_specs) {
      out +=
        `${s.spec_path}  (${plural(s.behaviors.length, "behavior")}, ${plural(s.constraints.length, "constraint")}, ` +
        `${plural(s.invariants.length, "invariant")})\n`;
      for (const m of s.matched_files) out += `  ${m.path}  (${m.category === "spec" ? "the spec's own file" : `${m.category}, via ${m.glob}`})\n`;
    }
    io.stdout(out);
    io.stderr(`${plural(r.changed_files.length, "changed file")} since the merge-base with ${base}; ${plural(r.affected_specs.length, "affected spec")}.\n`);
  }
  return 0;
}
