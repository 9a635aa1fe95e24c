/**
 * `noma-reconcile schema patch-op|transcript|capability|config|norma-config|output/<command>`:
 * the JSON Schema of a wire shape or file, generated from the zod schema the code itself
 * validates with (`config`: .notarai/config.yaml, `norma-config`: .norma/config.json,
 * `output/<command>`: the `--format json` output of that command, envelope included).
 */
import * as z from "zod/mini";
import { PatchOpSchema } from "../../patch/patch-op-union.js";
import { transcriptSchemas } from "../../transcript/transcript-schema.js";
import { capabilitySchemas } from "../../capability/capability-schema.js";
import { TOOL_VERSION } from "../../version.js";
import type { CliIO } from "../cli-io.js";
import { actionArg } from "../action-arg.js";

const SCHEMAS = {
  "patch-op": { schema: PatchOpSchema, title: "Noma Agent Protocol v1.0 patch op (one of the 25)" },
  transcript: { schema: transcriptSchemas().record, title: "Noma Agent Protocol v1.0 transcript record" },
  capability: { schema: capabilitySchemas().CapabilityDescriptorSchema, title: "Noma Agent Protocol v1.0 capability descriptor (Annex A)" },
} as const;

export const SCHEMA_NAMES = Object.keys(SCHEMAS) as Array<keyof typeof SCHEMAS>;

export function jsonSchemaFor(name: keyof typeof SCHEMAS): Record<string, unknown> {
  const { schema, title } = SCHEMAS[name];
  const generated = z.toJSONSchema(schema as z.ZodMiniType, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return { ...generated, $id: `https://noma-reconcile.dev/schema/${name}/${TOOL_VERSION}.json`, title };
}

export async function schemaCommand(name: string, io: CliIO): Promise<number> {
  if (name.startsWith("output/") || name === "output") {
    const { OUTPUT_SCHEMA_NAMES, outputJsonSchema } = await import("../output-schemas.js");
    const which = actionArg("schema", name, OUTPUT_SCHEMA_NAMES, "output schema");
    io.stdout(`${JSON.stringify(outputJsonSchema(which.slice("output/".length) as Parameters<typeof outputJsonSchema>[0]), null, 2)}\n`);
    return 0;
  }
  if (name === "config") {
    const { configJsonSchema } = await import("../../config/config-json-schema.js");
    io.stdout(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
    return 0;
  }
  if (name === "norma-config") {
    const { runConfigJsonSchema } = await import("../../runs/run-config-json-schema.js");
    io.stdout(`${JSON.stringify(runConfigJsonSchema(), null, 2)}\n`);
    return 0;
  }
  const which = actionArg("schema", name, [...SCHEMA_NAMES, "config", "norma-config", "output/<command>"], "schema") as keyof typeof SCHEMAS;
  io.stdout(`${JSON.stringify(jsonSchemaFor(which), null, 2)}\n`);
  return 0;
}
