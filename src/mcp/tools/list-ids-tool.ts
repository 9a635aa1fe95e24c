/** MCP `list_ids` (Annex B.4): canonical ids in document order and the alias map (alias → canonical id). */
import { parseNoma } from "../../noma/parse-noma.js";
import type { ToolContext } from "../tool-context.js";
import { documentArg } from "./document-arg.js";
import { readTextFile } from "../../fsx/read-text-file.js";

export interface ListIdsResult {
  ids: string[];
  aliases: Record<string, string>;
}

export async function listIdsTool(args: { file: string }, ctx: ToolContext): Promise<ListIdsResult> {
  const { abs } = documentArg(args.file, ctx);
  const doc = parseNoma(readTextFile(abs));
  return { ids: [...doc.ids], aliases: Object.fromEntries(doc.aliasMap) };
}
