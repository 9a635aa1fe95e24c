/**
 * Where the published package keeps its runtime dependencies: `dist/vendor/` (scripts/build.mjs
 * bundles each into one CommonJS file there, beside the WebAssembly file it loads), so the
 * package has no `dependencies` to install and each loads on first use only. Running from
 * source (tests, `npm run bench`), the same packages come from node_modules.
 */
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

declare const __NOMA_RECONCILE_VENDOR__: boolean | undefined;

/** Whether this code runs from the published bundle (dist/), where dependencies are vendored. */
export function isBundled(): boolean {
  return typeof __NOMA_RECONCILE_VENDOR__ !== "undefined" && __NOMA_RECONCILE_VENDOR__;
}

/** The path of `dist/vendor/<file>`, from code in dist/ (an entry), dist/chunks/, dist/commands/ or dist/bodies/. */
export function vendoredPath(file: string): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const dist = ["chunks", "commands", "bodies"].includes(basename(here)) ? dirname(here) : here;
  return join(dist, "vendor", file);
}

/**
 * A dependency, synchronously: `dist/vendor/<file>` in the bundle, else what `fromSource`
 * requires from node_modules (a require, not an import: the ES module loader would first scan a
 * CommonJS package for its exports).
 */
export function requireVendored<T>(file: string, fromSource: (require: NodeJS.Require) => T): T {
  const require = createRequire(import.meta.url);
  return isBundled() ? (require(vendoredPath(file)) as T) : fromSource(require);
}
