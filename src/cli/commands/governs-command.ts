/**
 * `governs <path…>`: which specs govern each path, through which glob; a
 * directory answers for the files git knows under it, grouped by spec.
 * Exit 1 when some path (or file under a directory) is governed by no spec (like grep finding nothing).
 */
import { type DirectoryGovernance, type PathGovernance, whichSpecsGovern } from "../../governance/which-specs-govern.js";
import { AUDIT_DESCRIPTIONS } from "../../governance/audit-paths.js";
import { buildGovernance } from "../../governance/governance.js";
import { readAuditLocations } from "../../governance/read-audit-locations.js";
import { loadSpecs } from "../../governance/load-specs.js";
import { UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { pathArg } from "../repo-context.js";
import { callTool, envelope, formatArg, requireRepo, warningSink } from "./reconcile-command.js";
import { plural } from "../../report/plural.js";

function whyNotGoverned(p: PathGovernance): string {
  return p.state === "ignored"
    ? "ignored by git"
    : p.state === "not-a-file"
      ? "not a regular file (a FIFO, a socket or a device): git tracks only files and links"
      : p.state === "internal"
        ? "the tool's own state"
        : p.audit !== null
          ? `${AUDIT_DESCRIPTIONS[p.audit]}, a record the tools keep for audit`
          : p.excluded
            ? "excluded by the system spec"
            : "no spec's globs match";
}

function directoryText(d: DirectoryGovernance, byPath: ReadonlyMap<string, PathGovernance>): string {
  if (d.files.length === 0) return `${d.path}/: no files git knows under it\n`;
  let out = `${d.path}/: ${plural(d.files.length, "file")}\n`;
  const groups = new Map<string, string[]>();
  for (const f of d.files) {
    const p = byPath.get(f)!;
    const keys = p.governed_by.length > 0 ? p.governed_by.map((g) => `${g.spec_path} (${g.category}, via ${g.glob})`) : [`not governed (${whyNotGoverned(p)})`];
    for (const k of keys) groups.set(k, [...(groups.get(k) ?? []), f]);
  }
  const governed = [...groups.keys()].filter((k) => !k.startsWith("not governed")).sort();
  const not = [...groups.keys()].filter((k) => k.startsWith("not governed")).sort();
  for (const k of [...governed, ...not]) {
    const files = groups.get(k)!;
    out += `  ${k}: ${plural(files.length, "file")}\n`;
    for (const f of files) out += `    ${f}\n`;
  }
  return out;
}

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
      const byPath = new Map(result.paths.map((p) => [p.path, p]));
      const directories = new Map(result.directories.map((d) => [d.path, d]));
      // In the order given: a path's specs, or a directory's files grouped by what governs them.
      for (const rel of rels) {
        const d = directories.get(rel === "" ? "." : rel);
        if (d !== undefined) {
          out += directoryText(d, byPath);
          continue;
        }
        const p = byPath.get(rel)!;
        if (p.governed_by.length === 0) out += `${p.path}: not governed (${whyNotGoverned(p)})\n`;
        else {
          for (const g of p.governed_by)
            out += `${p.path}: ${g.spec_path} (${g.category}, via ${g.glob})${p.state === "absent" ? " [does not exist yet]" : ""}\n`;
        }
      }
      io.stdout(out);
    }
    return ungoverned.length > 0 ? 1 : 0;
  });
}
