/**
 * Watch a directory tree for changes (`check --watch`, `fmt --check --watch`): calls `onChange`
 * with the repository-relative POSIX path of each file (or directory) an event names. Where
 * the platform watches a tree natively (macOS, Windows: `fs.watch(…, { recursive: true })`)
 * one watcher serves the tree; elsewhere (Linux, where Node emulates it by walking the tree
 * itself, following no rule of ours) one watcher per directory, added as directories appear.
 * `skip(rel)` names the directories never watched (.git/, .norma/, node_modules/): their
 * churn never reaches `onChange`. Symbolic links to directories are not followed. Events say
 * "something changed here", nothing more: the caller re-reads what it needs.
 */
import { type FSWatcher, readdirSync, statSync, watch } from "node:fs";
import { join, sep } from "node:path";

export interface TreeWatcher {
  /** "recursive": one native watcher; "per-directory": the fallback. */
  mode: "recursive" | "per-directory";
  close(): void;
}

export interface WatchTreeOptions {
  /** A directory (repository-relative POSIX path) never watched, nor anything under it. */
  skip: (rel: string) => boolean;
  /** A watcher failed (a directory gone is not a failure: its watcher is dropped). */
  onError?: (error: Error) => void;
  /** Force the fallback (tests; platforms whose native recursive watch misbehaves). */
  perDirectory?: boolean;
}

const NATIVE_RECURSIVE = process.platform === "darwin" || process.platform === "win32";

const posix = (p: string): string => (sep === "/" ? p : p.split(sep).join("/"));
const under = (dir: string, name: string): string => (dir === "" ? name : `${dir}/${name}`);

/** Whether `rel` or a directory above it is skipped. */
function skipped(rel: string, skip: (rel: string) => boolean): boolean {
  const parts = rel.split("/");
  for (let i = 1; i <= parts.length; i++) if (skip(parts.slice(0, i).join("/"))) return true;
  return false;
}

export function watchTree(root: string, onChange: (rel: string) => void, options: WatchTreeOptions): TreeWatcher {
  const report = (e: unknown): void => options.onError?.(e instanceof Error ? e : new Error(String(e)));
  if (NATIVE_RECURSIVE && options.perDirectory !== true) {
    const w = watch(root, { recursive: true }, (_event, name) => {
      const rel = name === null ? "" : posix(name.toString());
      if (rel !== "" && skipped(rel, options.skip)) return;
      onChange(rel);
    });
    w.on("error", report);
    return { mode: "recursive", close: () => w.close() };
  }
  const watchers = new Map<string, FSWatcher>();
  let closed = false;
  const drop = (dir: string): void => {
    for (const [d, w] of watchers)
      if (d === dir || d.startsWith(`${dir}/`) || dir === "") {
        w.close();
        watchers.delete(d);
      }
  };
  /** Watch `dir` and the directories under it; `announce`: report the files found (a directory that just appeared). */
  const add = (dir: string, announce: boolean): void => {
    if (closed || watchers.has(dir) || (dir !== "" && options.skip(dir))) return;
    let w: FSWatcher;
    try {
      w = watch(join(root, dir), (_event, name) => {
        if (name === null) return onChange(dir);
        const rel = under(dir, posix(name.toString()));
        if (skipped(rel, options.skip)) return;
        let isDir = false;
        try {
          isDir = statSync(join(root, rel), { throwIfNoEntry: false })?.isDirectory() === true;
        } catch {
          // gone again, or unreadable: reported as a change all the same
        }
        onChange(rel);
        if (isDir) add(rel, true);
        else if (watchers.has(rel)) drop(rel);
      });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") report(e);
      return;
    }
    w.on("error", (e) => {
      drop(dir);
      if ((e as NodeJS.ErrnoException).code !== "ENOENT" && (e as NodeJS.ErrnoException).code !== "EPERM") report(e);
    });
    watchers.set(dir, w);
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(join(root, dir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const rel = under(dir, e.name);
      if (e.isDirectory()) add(rel, announce);
      else if (announce && !skipped(rel, options.skip)) onChange(rel);
    }
  };
  add("", false);
  return {
    mode: "per-directory",
    close: () => {
      closed = true;
      drop("");
    },
  };
}
