/**
 * `fmt --check --watch`: say which documents would be reformatted, as `fmt --check` does, then
 * look again on every change to a `.noma` document and print only what changed: `would reformat
 * <file>` for a document that is no longer formatted, `now formatted <file>` for one that is
 * again, `skipped <file>: <why>` for one fmt cannot format any more, then one status line.
 * Writes nothing, ever. `--format json`: one compact `fmt` envelope per run (the whole report,
 * and `result.watch`: the run's number, the changed paths, the documents that became
 * unformatted and those that became formatted). Ctrl-C or SIGTERM: exit 0.
 */
import { formatJsonEnvelope } from "../../report/json-envelope.js";
import { checkedPathKind } from "../../layout/checked-path.js";
import type { FormatDocumentResult } from "../../editing/format-document.js";
import { plural } from "../../report/plural.js";
import { TOOL_NAME } from "../../version.js";
import type { CliIO } from "../cli-io.js";
import { watchLoop } from "./watch-loop.js";

export interface FmtCheckWatchOptions {
  root: string;
  io: CliIO;
  format: "text" | "json";
  /** One `fmt --check` of the documents (listed anew each time). */
  judge: () => Array<{ file: string; result: FormatDocumentResult }>;
}

type Status = FormatDocumentResult["status"];

function standing(statuses: ReadonlyMap<string, Status>): string {
  const would = [...statuses.values()].filter((s) => s === "would-format").length;
  return `${plural(statuses.size, "document")}, ${would} would be reformatted`;
}

export async function fmtCheckWatch(options: FmtCheckWatchOptions): Promise<number> {
  const { io, format } = options;
  let runs = 0;
  let last = new Map<string, Status>();
  const look = (changed: readonly string[]): void => {
    const results = options.judge();
    const now = new Map(results.map((r) => [r.file, r.result.status] as const));
    const becameUnformatted = results.filter((r) => r.result.status === "would-format" && last.get(r.file) !== "would-format").map((r) => r.file);
    const becameFormatted = results.filter((r) => r.result.status === "unchanged" && last.get(r.file) === "would-format").map((r) => r.file);
    const becameSkipped = results.filter((r) => r.result.status === "skipped" && last.get(r.file) !== "skipped");
    // A document that is not UTF-8 text or cannot be read: an error, as fmt --check reports it.
    const becameError = results.filter((r) => r.result.status === "error" && last.get(r.file) !== "error");
    const first = runs === 0;
    if (format === "json") {
      const envelope = formatJsonEnvelope(
        "fmt",
        {
          command: "fmt --check --watch",
          ok: results.every((r) => r.result.status !== "would-format" && r.result.status !== "error"),
          summary: {
            documents: results.length,
            would_format: results.filter((r) => r.result.status === "would-format").length,
            unchanged: results.filter((r) => r.result.status === "unchanged").length,
            skipped: results.filter((r) => r.result.status === "skipped").length,
            errors: results.filter((r) => r.result.status === "error").length,
          },
          result: {
            check: true,
            files: results.map(({ file, result: r }) => ({
              file,
              status: r.status,
              ...(r.code !== undefined ? { code: r.code } : {}),
              ...(r.pos !== undefined ? { pos: r.pos } : {}),
              ...(r.note !== undefined ? { note: r.note } : {}),
            })),
            watch: { run: runs, changed: [...changed], would_format: becameUnformatted, formatted: becameFormatted },
          },
        },
        true,
      );
      io.stdout(envelope);
    } else {
      const lines: string[] = [];
      for (const f of becameUnformatted) lines.push(`would reformat ${f}`);
      for (const f of becameFormatted) lines.push(`now formatted ${f}`);
      for (const s of becameSkipped) lines.push(`skipped ${s.file}: ${s.result.note ?? "fmt cannot format it"}`);
      for (const e of becameError) lines.push(`error ${e.file}: ${e.result.note ?? e.result.code ?? "it cannot be read"}`);
      if (first) lines.push(`watching: ${standing(now)}; Ctrl-C stops`);
      else {
        const shown = changed.length <= 3 ? changed.join(", ") : `${changed.slice(0, 3).join(", ")} and ${changed.length - 3} more`;
        lines.push(`${shown} changed: now ${standing(now)}`);
      }
      io.stdout(`${lines.join("\n")}\n`);
    }
    last = now;
    runs++;
  };
  return watchLoop({
    root: options.root,
    io,
    first: async () => look([]),
    relevant: (rel) => checkedPathKind(rel) === "document",
    rerun: async (changed) => {
      try {
        look(changed);
      } catch (e) {
        io.stderr(`${TOOL_NAME}: ${e instanceof Error ? e.message : String(e)}\n`);
      }
    },
  });
}
