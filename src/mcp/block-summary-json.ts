/**
 * The fast path of read_doc's block list: each block's JSON written straight
 * from the node, instead of building a summary object (blockSummary,
 * read-doc-answer.ts) and handing it to JSON.stringify. The text is the same
 * byte for byte; building tens of thousands of differently shaped small objects
 * and stringifying them was the largest cost of read_doc after the parse
 * (docs/perf/mcp.md). Equivalence: test/mcp/block-summary-json.test.ts (property
 * test against JSON.stringify(blockSummary(…)) over generated documents).
 */
import type { BlockNode, NomaDocument } from "../noma/ast.js";
import { blockHash } from "../patch/op-support.js";

const q = JSON.stringify;

function idOf(node: BlockNode): string | undefined {
  const id = node.type === "section" || node.type === "directive" ? node.id : undefined;
  return id !== undefined && id.length > 0 ? id : undefined;
}

export function blockSummaryJson(doc: NomaDocument, node: BlockNode): string {
  const id = idOf(node);
  let s = id !== undefined ? `{"id":${q(id)},"type":${q(node.type)}` : `{"type":${q(node.type)}`;
  if (node.type === "directive") {
    s += `,"name":${q(node.name)},"attrs":{`;
    let first = true;
    for (const [k, v] of Object.entries(node.attrs)) {
      if (k === "id") continue;
      s += `${first ? "" : ","}${q(k)}:${q(v)}`;
      first = false;
    }
    s += "}";
  }
  if (node.type === "section") s += `,"title":${q(node.title)},"level":${q(node.depth)}`;
  if ((node.type === "section" || node.type === "directive") && node.aliases.length > 0) s += `,"aliases":${q(node.aliases)}`;
  const childCount = node.type === "section" || node.type === "directive" || node.type === "list" ? node.children.length : 0;
  s += `,"childCount":${childCount},"lines":[${q(node.pos.line)},${q(node.endLine)}]`;
  return id !== undefined ? `${s},"patchable":true,"hash":"${blockHash(doc, node)}"}` : `${s},"patchable":false}`;
}

export function outlineEntryJson(node: BlockNode): string {
  const id = idOf(node);
  let s = id !== undefined ? `{"id":${q(id)},"type":${q(node.type)}` : `{"type":${q(node.type)}`;
  if (node.type === "directive") s += `,"name":${q(node.name)}`;
  if (node.type === "section") s += `,"title":${q(node.title)},"level":${q(node.depth)}`;
  return `${s},"lines":[${q(node.pos.line)},${q(node.endLine)}]}`;
}
