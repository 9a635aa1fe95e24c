/**
 * The tools' JSON Schemas for `tools/list`, generated from their zod schemas
 * (tool-schemas.ts). The build calls `toolJsonSchemas` once (scripts/build.mjs)
 * and the bundle carries the result, so neither the server's start nor its
 * tool calls load zod's JSON Schema code; from source it runs on first use.
 */
import * as z from "zod/mini";
import type { ToolName } from "./tool-catalog.js";
import { TOOL_SCHEMAS, type JsonSchema, type ToolSchemas } from "./tool-schemas.js";

/**
 * Spell a generated schema the way every client dialect reads it: no `$schema`
 * (draft 2020-12 is MCP's default), no `additionalProperties: {}` (the default
 * anyway), and `anyOf` of single types instead of a `type` array (clients that
 * map tool schemas onto single-type dialects reject those).
 */
function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (node === null || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node as JsonSchema)) {
    if (k === "additionalProperties" && v !== null && typeof v === "object" && Object.keys(v).length === 0) continue;
    if (k === "type" && Array.isArray(v)) {
      out["anyOf"] = v.map((t) => ({ type: t }));
      continue;
    }
    out[k] = k === "properties" || k === "$defs" ? Object.fromEntries(Object.entries(v as JsonSchema).map(([name, sub]) => [name, portable(sub)])) : portable(v);
  }
  return out;
}

function jsonSchema(schema: z.ZodMiniType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return portable(rest) as JsonSchema;
}

/** JSON Schemas (draft 2020-12, without `$schema`) of every tool's input and output. */
export function toolJsonSchemas(): Record<ToolName, { inputSchema: JsonSchema; outputSchema: JsonSchema }> {
  const out = {} as Record<ToolName, { inputSchema: JsonSchema; outputSchema: JsonSchema }>;
  for (const [name, s] of Object.entries(TOOL_SCHEMAS) as Array<[ToolName, ToolSchemas]>) {
    out[name] = { inputSchema: jsonSchema(s.input, "input"), outputSchema: jsonSchema(s.output, "output") };
  }
  return out;
}
