/**
 * `check --watch`: judge the work tree as `check` does, print the report, then re-judge on every
 * change to a file `check` judges (a document, book, transcript, sidecar, spec, the
 * configuration) and print only what changed: per file, the new findings and the fixed ones
 * (finding-changes.ts), then one status line. `--format json`: one compact `check` envelope per
 * run (the whole report, and `result.watch`: the run's number, the changed paths, the new and
 * the fixed findings per file). Ctrl-C or SIGTERM: exit 0. Each run re-judges the whole work
 * tree (see docs/lsp.md#check---watch for why); a run that fails (a configuration that no
 * longer parses) is said on stderr and the loop goes on.
 */
import { checkedPathKind } from "../../layout/checked-path.js";
import { countDiagnostics, type FileDiagnostics, lineSpan, location } from "../../report/file-diagnostics.js";
import { formatDiagnosticsJson } from "../../report/format-json.js";
import { formatDiagnosticsText } from "../../report/format-text.js";
import { plural } from "../../report/plural.js";
import { findingChanges, type FileFindingChanges } from "../../check/finding-changes.js";
import type { CheckRun } from "../../check/check-worktree.js";
import type { CliIO } from "../cli-io.js";
import { watchLoop } from "./watch-loop.js";

export interface CheckWatchOptions {
  root: string;
  io: CliIO;
  format: "text" | "json";
  color: boolean;
  maxWarnings?: number;
  /** One run of `check` on the work tree. */
  judge: () => Promise<CheckRun>;
}

/** `2 errors, 1 warning in 3 files` */
function standing(results: readonly FileDiagnostics[]): string {
  const c = countDiagnostics(results);
  return `${plural(c.errors, "error")}, ${plural(c.warnings, "warning")} in ${plural(c.files, "file")}`;
}

/** `a.noma`, `a.noma and b.noma`, `a.noma, b.noma, c.noma and 4 more` */
function named(paths: readonly string[]): string {
  if (paths.length === 0) return "a watched file";
  const shown = paths.slice(0, 3);
  const rest = paths.length - shown.length;
  if (rest > 0) return `${shown.join(", ")} and ${rest} more`;
  return shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}`;
}

function changeLines(changes: readonly FileFindingChanges[]): string {
  const lines: string[] = [];
  for (const c of changes) {
    for (const d of c.added) lines.push(`new   ${d.severity.toUpperCase()} [${d.code}] ${location(c.file, d)}: ${d.message}${lineSpan(d)}`);
    for (const d of c.fixed) lines.push(`fixed ${d.severity.toUpperCase()} [${d.code}] ${location(c.file, d)}: ${d.message}${lineSpan(d)}`);
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}

const asFiles = (changes: readonly FileFindingChanges[], pick: "added" | "fixed"): FileDiagnostics[] =>
  changes.filter((c) => c[pick].length > 0).map((c) => ({ file: c.file, diagnostics: c[pick] }));

export async function checkWatch(options: CheckWatchOptions): Promise<number> {
  const { io, format } = options;
  let runs = 0;
  const json = (results: readonly FileDiagnostics[], changed: readonly string[], changes: readonly FileFindingChanges[]): string =>
    formatDiagnosticsJson(
      results,
      { watch: { run: runs, changed: [...changed], new: asFiles(changes, "added"), fixed: asFiles(changes, "fixed") } },
      options.maxWarnings,
    );
  const line = (envelope: string): string => `${JSON.stringify(JSON.parse(envelope))}\n`;
  let last: FileDiagnostics[] = [];
  return watchLoop({
    root: options.root,
    io,
    first: async () => {
      last = (await options.judge()).results;
      if (format === "json") io.stdout(line(json(last, [], [])));
      else {
        io.stdout(
          formatDiagnosticsText(
            last.filter((r) => r.diagnostics.length > 0),
            { color: options.color },
          ),
        );
        io.stdout(`watching: ${standing(last)}; Ctrl-C stops\n`);
      }
    },
    relevant: (rel) => checkedPathKind(rel) !== null,
    rerun: async (changed) => {
      const now = (await options.judge()).results;
      runs++;
      const changes = findingChanges(last, now);
      last = now;
      if (format === "json") {
        io.stdout(line(json(now, changed, changes)));
        return;
      }
      const added = changes.reduce((n, c) => n + c.added.length, 0);
      const fixed = changes.reduce((n, c) => n + c.fixed.length, 0);
      const what =
        added + fixed === 0 ? "no new or fixed findings" : [added > 0 ? `${added} new` : "", fixed > 0 ? `${fixed} fixed` : ""].filter(Boolean).join(", ");
      io.stdout(`${changeLines(changes)}${named(changed)} changed: ${what}; now ${standing(now)}\n`);
    },
  });
}
