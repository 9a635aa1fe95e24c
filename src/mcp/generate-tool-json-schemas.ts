/**
 * The tools' JSON Schemas for `tools/list`, generated from their zod schemas
 * (tool-schemas.ts). The build calls `toolJsonSchemas` once (scripts/build.mjs)
 * and the bundle carries the result, so neither the server's start nor its
 * tool calls load zod's JSON Schema code; from source it runs on first use.
 */
import * as z from "zod/mini";
import type { ToolName } from "./tool-catalog.js";
import { ARGUMENT_ALIASES } from "./argument-aliases.js";
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
    out[k] =
      k === "properties" || k === "$defs" ? Object.fromEntries(Object.entries(v as JsonSchema).map(([name, sub]) => [name, portable(sub)])) : portable(v);
  }
  return out;
}

/** The one `type` every alternative of `node` declares (itself, a `$ref`'s target, each `anyOf` member), or null. */
function singleType(node: unknown, defs: JsonSchema, seen: Set<string> = new Set()): string | null {
  if (node === null || typeof node !== "object") return null;
  const n = node as JsonSchema;
  if (typeof n["type"] === "string") return n["type"];
  const ref = n["$ref"];
  if (typeof ref === "string" && ref.startsWith("#/$defs/")) {
    const name = ref.slice("#/$defs/".length);
    if (seen.has(name)) return null;
    seen.add(name);
    return singleType(defs[name], defs, seen);
  }
  const any = n["anyOf"];
  if (!Array.isArray(any) || any.length === 0) return null;
  const types = new Set(any.map((m) => singleType(m, defs, seen)));
  return types.size === 1 ? ([...types][0] ?? null) : null;
}

/**
 * Give a `$ref` or an `anyOf` the `type` all its alternatives share (`op` of patch_block is a
 * union of objects: `"type": "object"` beside it). Clients that read only `type` (and resolve
 * no `$ref`) otherwise see an untyped argument and send it as a JSON string.
 */
function typed(node: unknown, defs: JsonSchema): unknown {
  if (Array.isArray(node)) return node.map((x) => typed(x, defs));
  if (node === null || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node as JsonSchema))
    out[k] =
      k === "properties" || k === "$defs" ? Object.fromEntries(Object.entries(v as JsonSchema).map(([name, sub]) => [name, typed(sub, defs)])) : typed(v, defs);
  if (out["type"] === undefined && (out["$ref"] !== undefined || out["anyOf"] !== undefined)) {
    const t = singleType(out, defs);
    if (t !== null) return { type: t, ...out };
  }
  return out;
}

function jsonSchema(schema: z.ZodMiniType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  const p = portable(rest) as JsonSchema;
  return typed(p, (p["$defs"] as JsonSchema | undefined) ?? {}) as JsonSchema;
}

/** The canonical argument's description says which other name it also answers to (argument-aliases.ts). */
function describeAlias(input: JsonSchema, name: ToolName): JsonSchema {
  const a = ARGUMENT_ALIASES[name];
  const props = input["properties"] as Record<string, JsonSchema> | undefined;
  const prop = props?.[a?.canonical ?? ""];
  if (a === undefined || props === undefined || prop === undefined) return input;
  const said = typeof prop["description"] === "string" ? `${prop["description"]}. ` : "";
  const description = `${said}"${a.canonical}" is the canonical name; "${a.alias}" is accepted for it`;
  return { ...input, properties: { ...props, [a.canonical]: { ...prop, description } } };
}

/** JSON Schemas (draft 2020-12, without `$schema`) of every tool's input and output. */
export function toolJsonSchemas(): Record<ToolName, { inputSchema: JsonSchema; outputSchema: JsonSchema }> {
  const out = {} as Record<ToolName, { inputSchema: JsonSchema; outputSchema: JsonSchema }>;
  for (const [name, s] of Object.entries(TOOL_SCHEMAS) as Array<[ToolName, ToolSchemas]>) {
    out[name] = { inputSchema: describeAlias(jsonSchema(s.input, "input"), name), outputSchema: jsonSchema(s.output, "output") };
  }
  return out;
}
