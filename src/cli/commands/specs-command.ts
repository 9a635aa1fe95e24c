/**
 * `specs validate [paths…]` and `specs schema`: check spec files (every
 * `.notarai/**\/*.spec.yaml`, or the given ones; `$ref`s are resolved across
 * all of them) and print the bundled JSON Schema generated from zod.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { buildSpecSet, listSpecPaths, validateSpecFile } from "../../governance/load-specs.js";
import { specSchemaJson } from "../../governance/spec-json-schema.js";
import { formatSpecProblem } from "../../governance/spec-problem.js";
import { SPEC_VERSIONS } from "../../governance/spec-schema.js";
import { isSpecPath } from "../../governance/glob.js";
import { UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { actionArg } from "../action-arg.js";
import { choice, pathArg } from "../repo-context.js";
import { callTool, envelope, formatArg, requireRepo } from "./reconcile-command.js";
import { plural } from "../../report/plural.js";

export async function specsCommand(action: string, paths: string[], options: Record<string, unknown>, io: CliIO): Promise<number> {
  const what = actionArg("specs", action, ["validate", "schema"] as const);
  if (what === "schema") {
    if (paths.length > 0) throw new UsageError("`specs schema` takes no paths");
    const version = options["schemaVersion"] !== undefined ? choice("schema-version", String(options["schemaVersion"]), SPEC_VERSIONS) : undefined;
    io.stdout(`${JSON.stringify(specSchemaJson(version), null, 2)}\n`);
    return 0;
  }
  const format = formatArg(options);
  const ctx = requireRepo(io);
  return callTool(() => {
    const all = listSpecPaths(ctx.root);
    let selected: string[];
    if (paths.length === 0) selected = all;
    else {
      const chosen = new Set<string>();
      for (const given of paths) {
        const rel = pathArg(given, ctx, io.cwd);
        const abs = join(ctx.root, rel);
        if (!existsSync(abs)) throw new UsageError(`${given}: no such file or directory`);
        if (statSync(abs).isDirectory()) {
          for (const p of all) if (rel === "" || p.startsWith(`${rel}/`)) chosen.add(p);
        } else {
          if (!isSpecPath(rel)) throw new UsageError(`${given}: not a spec file (specs are .notarai/**/*.spec.yaml)`);
          chosen.add(rel);
        }
      }
      selected = [...chosen].sort();
    }
    // Validate every spec (so $refs resolve across the set), report the selected ones.
    const set = buildSpecSet([...new Set([...all, ...selected])].map((p) => validateSpecFile(ctx.root, p)));
    const files = selected.map((p) => set.byPath.get(p)!);
    const problems = files.flatMap((f) => f.problems);
    if (format === "json") {
      io.stdout(
        envelope("specs-validate", problems.length === 0, {
          files: files.map((f) => ({ path: f.path, schema_version: f.version, valid: f.problems.length === 0, problems: f.problems })),
          system_spec: set.system?.path ?? null,
        }),
      );
    } else {
      io.stdout(problems.map((p) => `${formatSpecProblem(p)}\n`).join(""));
      const bad = files.filter((f) => f.problems.length > 0).length;
      io.stderr(
        files.length === 0
          ? "No spec files found (.notarai/**/*.spec.yaml).\n"
          : `${plural(files.length, "spec file")} checked: ${plural(bad, "invalid file")}, ${plural(problems.length, "problem")}.\n`,
      );
    }
    return problems.length > 0 ? 1 : 0;
  });
}
