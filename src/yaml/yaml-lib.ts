/**
 * The YAML library, loaded on first use.
 *
 * Most documents have no frontmatter and their datasets' columns are read by hand
 * (yaml-dataset-columns.ts), and most repositories' hooks judge no spec: a static import
 * made every `check`, `patch` and pre-commit hook load the YAML library's code for nothing
 * (docs/perf/check.md). The parser is synchronous, so the library is loaded with a
 * synchronous `require`: from node_modules when running from source (the package's CJS
 * build), and in the published bundle from `dist/vendor/yaml.cjs`, the same CJS build
 * bundled into one file by scripts/build.mjs (one file loads faster than the package's
 * many).
 */
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type * as Yaml from "yaml";

declare const __NOMA_RECONCILE_VENDOR_YAML__: boolean | undefined;

let loaded: typeof Yaml | undefined;

/** The `yaml` package's exports. */
export function yamlLib(): typeof Yaml {
  return (loaded ??= load());
}

function load(): typeof Yaml {
  const require = createRequire(import.meta.url);
  if (typeof __NOMA_RECONCILE_VENDOR_YAML__ !== "undefined" && __NOMA_RECONCILE_VENDOR_YAML__) {
    // This code is in dist/ (an entry), dist/chunks/ (a shared chunk) or dist/bodies/ (a command body, src/cli/startup/load-cached-body.ts).
    const here = dirname(fileURLToPath(import.meta.url));
    return require(join(basename(here) === "chunks" || basename(here) === "bodies" ? dirname(here) : here, "vendor/yaml.cjs")) as typeof Yaml;
  }
  return require("yaml") as typeof Yaml;
}
