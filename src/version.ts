/**
 * The tool's identity, from package.json: the version and the project's page (`homepage`,
 * the base of SARIF's informationUri and help links, of our JSON Schema ids and of the
 * README `init` writes) are injected by the build (esbuild `define`, scripts/build.mjs; the
 * tests: vitest.config.ts), so package.json is the one place they are written.
 */
declare const __NOMA_RECONCILE_VERSION__: string | undefined;
declare const __NOMA_RECONCILE_HOMEPAGE__: string | undefined;

export const TOOL_NAME = "noma-reconcile";
export const TOOL_VERSION: string = typeof __NOMA_RECONCILE_VERSION__ === "string" ? __NOMA_RECONCILE_VERSION__ : "0.0.0-dev";
/** package.json's `homepage` (empty only in code built without the build's defines). */
export const TOOL_URL: string = typeof __NOMA_RECONCILE_HOMEPAGE__ === "string" ? __NOMA_RECONCILE_HOMEPAGE__ : "";
