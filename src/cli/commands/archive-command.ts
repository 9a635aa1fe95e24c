/**
 * `noma-reconcile archive list [path]` and `archive restore <path> [--number N]
 * [--month YYYY-MM] [--stdout]`: the versions the workspace tools archived before
 * overwriting files (archive/YYYY/MM/<path>.tar.zst, one member `<path>.~N~` per
 * version), and getting one back — to stdout, or in place, where the current version
 * is archived first (nothing is lost) and the restore is recorded in the ledger.
 * Exit 0 done, 2 nothing archived / bad arguments.
 */
import { formatJsonEnvelope } from "../../report/json-envelope.js";
import { readArchived, listArchived } from "../../workspace/read-archive.js";
import { appendLedger } from "../../workspace/append-ledger.js";
import { EffectJournal } from "../../workspace/effect-journal.js";
import { portableDetails } from "../../workspace/ledger-portable.js";
import { replaceFile } from "../../workspace/replace-file.js";
import { WorkspaceError } from "../../workspace/workspace-error.js";
import { openWorkspace, type Workspace } from "../../workspace/workspace.js";
import { RuntimeError, UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { actionArg } from "../action-arg.js";
import { applyLockTimeout } from "../lock-timeout-option.js";
import { choice, pathArg, repoContext } from "../repo-context.js";

function workspace(io: CliIO): Workspace {
  const ctx = repoContext(io.cwd);
  if (!ctx.inRepo) throw new RuntimeError(`not inside a git repository (${io.cwd})`);
  try {
    return openWorkspace(ctx.root, { onWarning: (m) => io.stderr(`warning: ${m}\n`) });
  } catch (e) {
    if (e instanceof WorkspaceError) throw new RuntimeError(e.message);
    throw e;
  }
}

function asRuntime(e: unknown): never {
  if (e instanceof WorkspaceError) throw new RuntimeError(e.message);
  throw e;
}

export async function archiveCommand(action: string, path: string | undefined, options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = choice("format", options["format"], ["text", "json"] as const);
  actionArg("archive", action, ["list", "restore"] as const);
  const ws = workspace(io);
  applyLockTimeout(options, ws.root);
  const rel = path !== undefined ? pathArg(path, { root: ws.root, inRepo: true }, io.cwd) : undefined;
  if (action === "list") {
    const files = await listArchived(ws, rel).catch(asRuntime);
    if (format === "json") io.stdout(formatJsonEnvelope("archive-list", { ok: true, summary: { archives: files.length }, result: { archives: files } }));
    else {
      for (const f of files) {
        io.stdout(`${f.archive}\n`);
        for (const m of f.members) io.stdout(`  ${m.member}  ${m.size} B  mode ${m.mode}  mtime ${m.mtime}  sha256 ${m.sha256.slice(0, 16)}…\n`);
      }
      if (files.length === 0) io.stderr(`nothing archived${rel !== undefined ? ` for ${rel}` : ""} under ${ws.protectedPaths.archive}/\n`);
    }
    return 0;
  }
  if (rel === undefined) throw new UsageError("archive restore needs the path, e.g. `noma-reconcile archive restore docs/a.md --number 2`");
  const month = options["month"] === undefined ? undefined : String(options["month"]);
  if (month !== undefined && !/^\d{4}-\d{2}$/.test(month)) throw new UsageError(`--month must be YYYY-MM; got "${month}"`);
  let version: number | undefined;
  if (options["number"] !== undefined) {
    version = Number(options["number"]);
    if (!Number.isInteger(version) || version < 1) throw new UsageError(`--number must be a whole number ≥ 1; got "${String(options["number"])}"`);
  }
  const found = await readArchived(ws, rel, { ...(month !== undefined ? { month } : {}), ...(version !== undefined ? { version } : {}) }).catch(asRuntime);
  if (options["stdout"] === true) {
    process.stdout.write(found.data);
    return 0;
  }
  const checked = (() => {
    try {
      return ws.check(rel, "write");
    } catch (e) {
      return asRuntime(e);
    }
  })();
  // Intent first (before anything is archived or written), outcome after: effect-journal.ts.
  const journal = new EffectJournal(ws, "archive_restore", { via: "cli" });
  const r = await replaceFile(ws, checked, () => found.data, {
    create: true,
    mode: found.mode,
    intent: (p) => journal.intent(rel, { from: found.archive, member: found.member, sha256: p.sha256, bytes: p.bytes, created: p.created }),
  }).catch(async (e: unknown) => {
    // Failed after its intent was recorded: the outcome says so.
    if (journal.intentSeq !== null)
      await appendLedger(ws, [
        {
          action: "archive_restore",
          path: rel,
          details: portableDetails(
            { via: "cli", phase: "outcome", intent_seq: journal.intentSeq, outcome: "failed", message: (e as Error).message },
            ws.root,
            ws.env["HOME"],
          ),
        },
      ]);
    return asRuntime(e);
  });
  await appendLedger(ws, [
    {
      action: "archive_restore",
      path: rel,
      details: {
        via: "cli",
        ...(journal.intentSeq !== null ? { phase: "outcome", intent_seq: journal.intentSeq } : {}),
        outcome: "ok",
        from: found.archive,
        member: found.member,
        bytes_written: r.bytesWritten,
        sha256: r.sha256,
        unchanged: r.unchanged,
        ...(r.archived !== undefined ? { archive: r.archived.archive, archive_member: r.archived.member } : {}),
      },
    },
  ]);
  const line = r.unchanged
    ? `${rel} already has the contents of ${found.archive} ${found.member}; nothing written`
    : `restored ${rel} from ${found.archive} ${found.member}` +
      `${r.archived !== undefined ? ` (the version it replaced is ${r.archived.archive} ${r.archived.member})` : ""}`;
  if (format === "json")
    io.stdout(
      formatJsonEnvelope("archive-restore", {
        ok: true,
        summary: { written: !r.unchanged },
        result: { path: rel, from: found.archive, member: found.member, unchanged: r.unchanged, archived: r.archived ?? null },
      }),
    );
  else io.stdout(`${line}\n`);
  return 0;
}
