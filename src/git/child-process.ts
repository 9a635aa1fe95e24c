/**
 * node:child_process on first use. Loading it loads net, dgram and the stream machinery
 * (docs/perf/check.md), which a `check` or `patch` of named documents in a
 * plain repository never needs: it finds the top level without git.
 */
import { createRequire } from "node:module";

let loaded: typeof import("node:child_process") | undefined;

export function childProcess(): typeof import("node:child_process") {
  return (loaded ??= createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process"));
}
