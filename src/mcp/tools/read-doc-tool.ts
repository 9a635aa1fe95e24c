/**
 * MCP `read_doc` (Annex B.3): every block of a document in document order,
 * nested children included, with its 1-based inclusive lines; patchable blocks
 * also carry `hash` (blockHash: an op's `baseHash`), and the result carries the
 * document's `sha256` (patch_block's `base_sha256`). For a large document the
 * options `view`, `ids`, `max_bytes` and `cursor` choose less (read-doc-answer.ts).
 * The answer is its JSON as one text block (TextAnswer: no structuredContent).
 */
import { createHash } from "node:crypto";
import { parseNoma } from "../../noma/parse-noma.js";
import { displayPath } from "../../git/git-path.js";
import type { ToolContext } from "../tool-context.js";
import { TextAnswer } from "../tool-result.js";
import { readDocAnswer } from "../read-doc-answer.js";
import { documentArg, documentBytes } from "./document-arg.js";
import { decodeText } from "../../fsx/utf8-text.js";

export interface ReadDocArgs {
  file: string;
  view?: "full" | "outline";
  ids?: string[];
  max_bytes?: number;
  cursor?: string;
}

export async function readDocTool(args: ReadDocArgs, ctx: ToolContext): Promise<TextAnswer> {
  const arg = documentArg(args.file, ctx);
  const bytes = documentBytes(arg);
  const doc = parseNoma(decodeText(bytes, arg.rel));
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const options = {
    ...(args.view !== undefined ? { view: args.view } : {}),
    ...(args.ids !== undefined ? { ids: args.ids } : {}),
    ...(args.max_bytes !== undefined ? { maxBytes: args.max_bytes } : {}),
    ...(args.cursor !== undefined ? { cursor: args.cursor } : {}),
  };
  return new TextAnswer(readDocAnswer(doc, sha256, options, displayPath(arg.rel)));
}
