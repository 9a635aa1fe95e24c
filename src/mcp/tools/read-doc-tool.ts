/**
 * MCP `read_doc` (Annex B.3): every block of a document in document order,
 * nested children included, with its 1-based inclusive lines; patchable blocks
 * also carry `hash` (blockHash: an op's `baseHash`), and the result carries the
 * document's `sha256` (patch_block's `base_sha256`).
 */
import { createHash } from "node:crypto";
import type { AttrValue, BlockNode, NomaDocument } from "../../noma/ast.js";
import { parseNoma } from "../../noma/parse-noma.js";
import { walkBlocks } from "../../noma/walk.js";
import { blockHash } from "../../patch/op-support.js";
import type { ToolContext } from "../tool-context.js";
import { documentArg, documentBytes } from "./document-arg.js";
import { decodeText } from "../../fsx/utf8-text.js";

export interface BlockSummary {
  id?: string;
  type: string;
  name?: string;
  attrs?: Record<string, AttrValue>;
  title?: string;
  level?: number;
  aliases?: string[];
  childCount: number;
  lines: [number, number];
  patchable: boolean;
  hash?: string;
}

export interface ReadDocResult {
  sha256: string;
  blocks: BlockSummary[];
}

export function blockSummary(doc: NomaDocument, node: BlockNode): BlockSummary {
  const s: Partial<BlockSummary> = {};
  const id = node.type === "section" || node.type === "directive" ? node.id : undefined;
  if (id !== undefined && id.length > 0) s.id = id;
  s.type = node.type;
  if (node.type === "directive") {
    s.name = node.name;
    const attrs: Record<string, AttrValue> = {};
    for (const [k, v] of Object.entries(node.attrs)) if (k !== "id") attrs[k] = v;
    s.attrs = attrs;
  }
  if (node.type === "section") {
    s.title = node.title;
    s.level = node.depth;
  }
  if ((node.type === "section" || node.type === "directive") && node.aliases.length > 0) s.aliases = [...node.aliases];
  s.childCount = node.type === "section" || node.type === "directive" || node.type === "list" ? node.children.length : 0;
  s.lines = [node.pos.line, node.endLine];
  s.patchable = s.id !== undefined;
  if (s.patchable) s.hash = blockHash(doc, node);
  return s as BlockSummary;
}

export async function readDocTool(args: { file: string }, ctx: ToolContext): Promise<ReadDocResult> {
  const arg = documentArg(args.file, ctx);
  const bytes = documentBytes(arg);
  const doc = parseNoma(decodeText(bytes, arg.rel));
  const blocks: BlockSummary[] = [];
  walkBlocks(doc, (node) => {
    blocks.push(blockSummary(doc, node));
  });
  return { sha256: createHash("sha256").update(bytes).digest("hex"), blocks };
}
