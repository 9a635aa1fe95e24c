/** MCP `list_ids` (Annex B.4): canonical ids in document order and the alias map (alias → canonical id). */
import { parseNoma } from "../../noma/parse-noma.js";
import type { ToolContext } from "../tool-context.js";
import { documentArg, documentText } from "./document-arg.js";

export interface ListIdsResult {
  ids: string[];
  aliases: Record<string, string>;
}

export async function listIdsTool(args: { file: string }, ctx: ToolContext): Promise<ListIdsResult> {
  const doc = parseNoma(documentText(documentArg(args.file, ctx)));
  return { ids: [...doc.ids], aliases: Object.fromEntries(doc.aliasMap) };
}
