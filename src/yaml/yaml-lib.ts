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
import type * as Yaml from "yaml";
import { requireVendored } from "../vendored.js";

let loaded: typeof Yaml | undefined;

/** The `yaml` package's exports. */
export function yamlLib(): typeof Yaml {
  return (loaded ??= requireVendored("yaml.cjs", (require) => require("yaml") as typeof Yaml));
}
