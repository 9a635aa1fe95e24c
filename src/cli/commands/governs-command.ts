/**
 * `governs <path…>`: which specs govern each path, through which glob.
 * Exit 1 when some path is governed by no spec (like grep finding nothing).
 */
import { whichSpecsGovern } from "../../spec/which-specs-govern.js";
import { AUDIT_DESCRIPTIONS } from "../../spec/audit-paths.js";
import { buildGovernance } from "../../spec/governance.js";
import { readAuditLocations } from "../../spec/read-audit-locations.js";
import { loadSpecs } from "../../spec/load-specs.js";
import { UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { pathArg } from "../repo-context.js";
import { callTool, envelope, formatArg, requireRepo, warningSink } from "./reconcile-command.js";

export async function governsCommand(paths: string[], options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = formatArg(options);
  if (paths.length === 0) throw new UsageError("give at least one path");
  const ctx = requireRepo(io);
  const { warnings, onWarning } = warningSink(io);
  return callTool(() => {
    const rels = paths.map((p) => pathArg(p, ctx, io.cwd));
    const specs = loadSpecs(ctx.root);
    for (const f of specs.files) if (f.data === null) onWarning(`invalid spec ${f.path} governs only its own file (run \`noma-reconcile specs validate\`)`);
    const result = whichSpecsGovern(ctx.root, rels, buildGovernance(specs, readAuditLocations(ctx.root)));
    const ungoverned = result.paths.filter((p) => p.governed_by.length === 0);
    if (format === "json")
      io.stdout(envelope("governs", ungoverned.length === 0, result, warnings, { paths: result.paths.length, ungoverned: ungoverned.length }));
    else {
      let out = "";
      for (const p of result.paths) {
        if (p.governed_by.length === 0) {
          const why =
            p.state === "ignored"
              ? "ignored by git"
              : p.state === "internal"
                ? "the tool's own state"
                : p.audit !== null
                  ? `${AUDIT_DESCRIPTIONS[p.audit]}, a record the tools keep for audit`
                  : p.excluded
                    ? "excluded by the system spec"
                    : "no spec's globs match";
          out += `${p.path}: not governed (${why})\n`;
        } else {
          for (const g of p.governed_by)
            out += `${p.path}: ${g.spec_path} (${g.category}, via ${g.glob})${p.state === "absent" ? " [does not exist yet]" : ""}\n`;
        }
      }
      io.stdout(out);
    }
    return ungoverned.length > 0 ? 1 : 0;
  });
}
