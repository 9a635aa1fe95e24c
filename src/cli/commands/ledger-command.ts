/**
 * `noma-reconcile ledger verify [file] [--against REF|none] [--format text|json]`:
 * verify the evidence ledger (default: `workspace.ledger`, docs/evidence_ledger.tools.log)
 * line by line — entry shape, seq, hash chain, torn tail — and, when the file is
 * committed at REF (default HEAD), that the committed lines are still its first lines.
 * Intents without outcomes (interrupted requests) are listed as notes: information, not
 * findings. Exit 0 intact, 1 findings, 2 no ledger / bad arguments / not a repository.
 */
import { formatJsonEnvelope } from "../../report/json-envelope.js";
import { blobAt } from "../../git/blob-at.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { GitError } from "../../git/exec-git.js";
import { assertSafeRef } from "../../git/resolve-commit.js";
import { verifyLedger } from "../../workspace/verify-ledger.js";
import { WorkspaceError } from "../../workspace/workspace-error.js";
import { openWorkspace } from "../../workspace/workspace.js";
import { RuntimeError, UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { plural } from "../../report/plural.js";
import { actionArg } from "../action-arg.js";
import { choice, pathArg, repoContext } from "../repo-context.js";

export async function ledgerCommand(action: string, file: string | undefined, options: Record<string, unknown>, io: CliIO): Promise<number> {
  actionArg("ledger", action, ["verify"] as const);
  const format = choice("format", options["format"], ["text", "json"] as const);
  const ctx = repoContext(io.cwd);
  let rel: string;
  if (file !== undefined) rel = pathArg(file, ctx, io.cwd);
  else {
    try {
      rel = openWorkspace(ctx.root, { onWarning: (m) => io.stderr(`warning: ${m}\n`) }).protectedPaths.ledger;
    } catch (e) {
      if (e instanceof WorkspaceError) throw new RuntimeError(e.message);
      throw e;
    }
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(ctx.root, rel));
  } catch (e) {
    throw new RuntimeError(
      `${rel}: cannot read the ledger ` +
        `(${(e as NodeJS.ErrnoException).code ?? (e as Error).message})${file === undefined ? "; the workspace tools create it on their first request" : ""}`,
    );
  }
  const against = options["against"] === undefined ? "HEAD" : String(options["against"]);
  let committed: Buffer | undefined;
  let comparedWith: string | null = null;
  if (against !== "none" && ctx.inRepo) {
    try {
      assertSafeRef(against);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    try {
      committed = blobAt(ctx.root, against, rel);
      comparedWith = against;
    } catch (e) {
      if (!(e instanceof GitError)) throw e;
      if (options["against"] !== undefined && !/does not exist|exists on disk, but not in|not in '/.test(e.stderr))
        throw new UsageError(`--against ${against}: ${e.message}`);
      // not committed there (or no commit yet): the chain alone is checked
    }
  }
  const report = verifyLedger(bytes, committed !== undefined ? { committed } : {});
  if (format === "json") {
    io.stdout(
      formatJsonEnvelope("ledger-verify", {
        ok: report.ok,
        summary: { lines: report.lines, findings: report.findings.length, interrupted: report.interrupted.length },
        result: {
          file: rel,
          lines: report.lines,
          against: comparedWith,
          committed_lines: report.committedLines ?? null,
          head_sha256: report.headSha256,
          findings: report.findings,
          interrupted: report.interrupted,
        },
      }),
    );
  } else {
    for (const f of report.findings) io.stdout(`ERROR [${f.code}] ${rel}:${f.line}: ${f.message}\n`);
    for (const i of report.interrupted) io.stdout(`note [interrupted] ${rel}:${i.line}: ${i.message}\n`);
    if (report.ok) {
      const committed =
        comparedWith !== null
          ? `, the ${plural(report.committedLines ?? 0, "line")} committed at ${comparedWith} unchanged`
          : " (not committed: the last lines' removal can only be seen against a commit)";
      io.stdout(`✓ ${rel}: ${plural(report.lines, "line")}, seq and hash chain intact${committed}\n`);
    }
  }
  return report.ok ? 0 : 1;
}
