/**
 * The tools' JSON Schemas for `tools/list`. The build generates them from the
 * zod schemas (`toolJsonSchemas`, generate-tool-json-schemas.ts) and injects the result as JSON text, so the
 * shipped server answers without loading zod; from source they are generated
 * on first use.
 */
import type { ToolName } from "./tool-catalog.js";
import type { JsonSchema } from "./tool-schemas.js";

export type ToolJsonSchemas = Record<ToolName, { inputSchema: JsonSchema; outputSchema: JsonSchema }>;

/** JSON text injected by the build (a string: esbuild would inject an object define into every module). */
declare const __NOMA_RECONCILE_TOOL_SCHEMAS__: string | undefined;

let cached: ToolJsonSchemas | undefined;

export async function loadToolJsonSchemas(): Promise<ToolJsonSchemas> {
  if (cached !== undefined) return cached;
  cached =
    typeof __NOMA_RECONCILE_TOOL_SCHEMAS__ === "string"
      ? (JSON.parse(__NOMA_RECONCILE_TOOL_SCHEMAS__) as ToolJsonSchemas)
      : (await import("./generate-tool-json-schemas.js")).toolJsonSchemas();
  return cached;
}
