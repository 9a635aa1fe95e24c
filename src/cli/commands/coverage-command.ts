/**
 * `coverage`: tracked files no spec governs. Exit 1 only when the system
 * spec's `coverage.policy` is `strict` and some file is uncovered.
 */
import { coverageReport } from "../../governance/coverage-report.js";
import type { CliIO } from "../cli-io.js";
import { callTool, envelope, formatArg, requireRepo } from "./reconcile-command.js";
import { plural } from "../../report/plural.js";

export async function coverageCommand(options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = formatArg(options);
  const ctx = requireRepo(io);
  return callTool(() => {
    const r = coverageReport(ctx.root);
    if (format === "json") io.stdout(envelope("coverage", !r.failing, r));
    else {
      if (r.policy !== "off") io.stdout(r.uncovered.map((p) => `${p}\n`).join(""));
      const head =
        `${plural(r.tracked, "tracked file")}: ${r.governed} governed, ${r.excluded} excluded, ${r.uncovered.length} uncovered (coverage ` +
        `policy: ${r.policy}${r.policy_source !== null ? ` from ${r.policy_source}` : ", the default"})`;
      io.stderr(`${head}.\n${r.uncovered.length > 0 && r.message !== null && r.policy !== "off" ? `${r.message}\n` : ""}`);
    }
    return r.failing ? 1 : 0;
  });
}
