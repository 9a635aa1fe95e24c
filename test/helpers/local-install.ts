/**
 * Make a temp repository look as if `npm i -D noma-reconcile` had run in it,
 * without a registry: `node_modules/noma-reconcile` is a symlink to this
 * package (what `npm link` does), `node_modules/.bin/noma-reconcile` a symlink
 * to its bin, as npm lays them out; node_modules is kept out of git by
 * `.git/info/exclude`. And the programs a user's machine has that are not
 * ours, as stubs: `npx` and `npm` that only record being called.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./temp-repo.js";

/** This package's root (its package.json, dist/, hooks/). */
export const PACKAGE_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export function installLocally(repo: string): void {
  mkdirSync(join(repo, "node_modules/.bin"), { recursive: true });
  symlinkSync(PACKAGE_ROOT, join(repo, "node_modules/noma-reconcile"), "dir");
  const bin = (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { bin: Record<string, string> }).bin["noma-reconcile"]!;
  symlinkSync(relative(join(repo, "node_modules/.bin"), join(repo, "node_modules/noma-reconcile", bin)), join(repo, "node_modules/.bin/noma-reconcile"));
  appendFileSync(join(repo, ".git/info/exclude"), "node_modules/\n");
}

export interface NetworkStubs {
  /** A PATH with the stubs in front of the real one. */
  path: string;
  /** What the stubs were asked to do, one line per call (empty: never called). */
  calls: () => string;
}

/** `npx` and `npm` stubs that record each call and fail (a user's offline machine, minus the wait). */
export function networkStubs(): NetworkStubs {
  const dir = tempDir("nr-stubs-");
  const log = join(dir, "calls.log");
  for (const name of ["npx", "npm"]) {
    writeFileSync(join(dir, name), `#!/bin/sh\necho "${name} $*" >> '${log}'\necho "${name}: stub, no network here" >&2\nexit 1\n`, { mode: 0o755 });
  }
  return { path: `${dir}:${process.env["PATH"] ?? ""}`, calls: () => (existsSync(log) ? readFileSync(log, "utf8") : "") };
}
