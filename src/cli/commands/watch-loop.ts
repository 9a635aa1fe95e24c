/**
 * The loop of `check --watch` and `fmt --check --watch`: watch the repository (fsx/watch-tree.ts;
 * .git/, .norma/ and node_modules/ never), gather the changed paths that `relevant` keeps, and
 * once no change has come for `debounceMs`, call `rerun` with them (sorted). `first` runs once the
 * watchers are in place (a change made after its output is never missed). Runs never overlap:
 * changes during a run are gathered for the next. SIGINT (Ctrl-C) and SIGTERM end the loop
 * cleanly: the watchers are closed and the promise resolves to 0 once the run in progress (if
 * any) has finished printing.
 */
import { watchTree } from "../../fsx/watch-tree.js";
import { TOOL_NAME } from "../../version.js";
import type { CliIO } from "../cli-io.js";

/** What an editor's save (write a temporary file, rename it over the old) leaves as several events, seen as one change. */
export const WATCH_DEBOUNCE_MS = 150;

/** .git/ and .norma/ at the top, node_modules/ anywhere: never watched. */
const neverWatched = (rel: string): boolean => rel === ".git" || rel === ".norma" || rel === "node_modules" || rel.endsWith("/node_modules");

export interface WatchLoopOptions {
  root: string;
  io: CliIO;
  /** Whether a change to this repository-relative path calls for a re-run ("" : somewhere, unnamed). */
  relevant: (rel: string) => boolean;
  /** The first run: started once the watchers are in place, so no change made after its output is missed. */
  first: () => Promise<void>;
  rerun: (changed: readonly string[]) => Promise<void>;
  debounceMs?: number;
}

export function watchLoop(options: WatchLoopOptions): Promise<number> {
  const { io } = options;
  const debounce = options.debounceMs ?? WATCH_DEBOUNCE_MS;
  return new Promise<number>((resolve) => {
    const pending = new Set<string>();
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> | undefined;
    let stopping = false;
    const fire = (): void => {
      timer = undefined;
      if (stopping || pending.size === 0) return;
      if (running !== undefined) return; // the run in progress schedules the next
      const changed = [...pending].sort();
      pending.clear();
      track(options.rerun(changed));
    };
    const track = (run: Promise<void>): void => {
      running = run
        .catch((e: unknown) => io.stderr(`${TOOL_NAME}: ${e instanceof Error ? e.message : String(e)}\n`))
        .finally(() => {
          running = undefined;
          if (pending.size > 0 && timer === undefined) timer = setTimeout(fire, debounce);
        });
    };
    const watcher = watchTree(
      options.root,
      (rel) => {
        if (stopping || !options.relevant(rel)) return;
        pending.add(rel);
        if (timer !== undefined) clearTimeout(timer);
        timer = setTimeout(fire, debounce);
      },
      { skip: neverWatched, onError: (e) => io.stderr(`${TOOL_NAME}: watching: ${e.message}\n`) },
    );
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      if (timer !== undefined) clearTimeout(timer);
      watcher.close();
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      void (running ?? Promise.resolve()).then(() => resolve(0));
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    track(options.first());
  });
}
