/**
 * The tool's identity. The version is injected by the build (esbuild `define`);
 * when running from source (tests), it falls back to package.json's.
 */
declare const __NOMA_RECONCILE_VERSION__: string | undefined;

export const TOOL_NAME = "noma-reconcile";
export const TOOL_VERSION: string = typeof __NOMA_RECONCILE_VERSION__ === "string" ? __NOMA_RECONCILE_VERSION__ : "0.0.0-dev";
export const TOOL_URL = "https://github.com/noma-reconcile/noma-reconcile";
