/**
 * sha256 as lowercase hex (document states, transcript chain links).
 *
 * node:crypto is required on first use, not at load: `check` bundles this module for the
 * transcripts it judges, and a `check` of documents without one never needs it (loading it
 * pulls in Node's stream modules: docs/perf/check.md).
 */
import { createRequire } from "node:module";

let crypto: typeof import("node:crypto") | undefined;

export function sha256Hex(data: string | Uint8Array): string {
  crypto ??= createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return crypto.createHash("sha256").update(data).digest("hex");
}
