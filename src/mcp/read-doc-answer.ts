/**
 * The text of a read_doc answer (Annex B.3), written block by block: the JSON
 * `{"sha256":…,"blocks":[…]}`, for the whole document (the default), an outline
 * (`view: "outline"`), the chosen blocks (`ids`), and within a byte budget
 * (`max_bytes`: the list stops at a block boundary, and the answer says so with
 * `truncated`, `remaining` and a `next` cursor to pass back as `cursor`).
 *
 * The cursor is `<index>.<sha>.<selection>`: the position in the selection of the
 * first block not yet returned, the first 16 hex digits of the document's sha256
 * (a document changed since is refused: positions would not mean the same blocks)
 * and a digest of the view and the chosen ids (a cursor given with other
 * arguments is refused). So the pages of one selection join up to the whole of
 * it, nothing lost or repeated. Pure: the tool (tools/read-doc-tool.ts) reads
 * the file.
 */
import { createHash } from "node:crypto";
import type { AttrValue, BlockNode, NomaDocument } from "../noma/ast.js";
import { walkBlocks } from "../noma/walk.js";
import { blockHash } from "../patch/op-support.js";
import { didYouMean } from "../errors/did-you-mean.js";
import { ToolFailure } from "./tool-result.js";
import { blockSummaryJson, outlineEntryJson } from "./block-summary-json.js";
import { joinInChunks } from "./join-in-chunks.js";

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

/** An outline entry: where a block is and what it is called, nothing of its content. */
export interface OutlineEntry {
  id?: string;
  type: string;
  name?: string;
  title?: string;
  level?: number;
  lines: [number, number];
}

export interface ReadDocOptions {
  view?: "full" | "outline";
  /** Canonical ids or aliases: only these blocks, each with its subtree. */
  ids?: readonly string[];
  /** A budget for the answer's UTF-8 bytes. */
  maxBytes?: number;
  /** A previous answer's `next`. */
  cursor?: string;
}

const nodeId = (node: BlockNode): string | undefined => {
  const id = node.type === "section" || node.type === "directive" ? node.id : undefined;
  return id !== undefined && id.length > 0 ? id : undefined;
};

export function blockSummary(doc: NomaDocument, node: BlockNode): BlockSummary {
  const s: Partial<BlockSummary> = {};
  const id = nodeId(node);
  if (id !== undefined) s.id = id;
  s.type = node.type;
  if (node.type === "directive") {
    s.name = node.name;
    // No prototype: an attribute named "__proto__" is kept as one.
    const attrs: Record<string, AttrValue> = Object.create(null) as Record<string, AttrValue>;
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

export function outlineEntry(node: BlockNode): OutlineEntry {
  const s: Partial<OutlineEntry> = {};
  const id = nodeId(node);
  if (id !== undefined) s.id = id;
  s.type = node.type;
  if (node.type === "directive") s.name = node.name;
  if (node.type === "section") {
    s.title = node.title;
    s.level = node.depth;
  }
  s.lines = [node.pos.line, node.endLine];
  return s as OutlineEntry;
}

/** The blocks the view and ids select, in document order, each once. */
export function selectBlocks(doc: NomaDocument, view: "full" | "outline", ids: readonly string[] | undefined, file: string): BlockNode[] {
  const inView = view === "outline" ? (n: BlockNode) => n.type === "section" || nodeId(n) !== undefined : () => true;
  const out: BlockNode[] = [];
  if (ids === undefined) {
    walkBlocks(doc, (n) => {
      if (inView(n)) out.push(n);
    });
    return out;
  }
  const chosen = new Set<string>();
  const unknown: string[] = [];
  for (const id of ids) {
    const canonical = doc.nodeById.has(id) ? id : doc.aliasMap.get(id);
    if (canonical === undefined) unknown.push(id);
    else chosen.add(canonical);
  }
  if (unknown.length > 0) {
    const known = [...doc.ids, ...doc.aliasMap.keys()];
    throw new ToolFailure(
      `ids: expected ids of ${file}, found ${unknown.length > 1 ? "unknown ids" : "an unknown id"} ` +
        `${unknown.map((u) => `${JSON.stringify(u)}${didYouMean(u, known)}`).join(", ")}; list_ids (or view "outline") gives the document's ids`,
    );
  }
  walkBlocks(doc, (n) => {
    const id = nodeId(n);
    if (id === undefined || !chosen.has(id)) return true;
    // A chosen block and everything inside it; nothing below it is visited again.
    if (inView(n)) out.push(n);
    if (n.type === "section" || n.type === "directive") pushSubtree(n.children);
    return false;
  });
  return out;

  /** Every block under a chosen one, in walkBlocks's order (into sections and directives). */
  function pushSubtree(nodes: readonly BlockNode[]): void {
    for (const m of nodes) {
      if (inView(m)) out.push(m);
      if (m.type === "section" || m.type === "directive") pushSubtree(m.children);
    }
  }
}

const CURSOR = /^(\d{1,9})\.([0-9a-f]{16})\.([0-9a-f]{8})$/;

function selectionKey(view: string, ids: readonly string[] | undefined): string {
  return createHash("sha256")
    .update(JSON.stringify([view, ids === undefined ? null : [...new Set(ids)].sort()]))
    .digest("hex")
    .slice(0, 8);
}

function startOf(cursor: string | undefined, sha256: string, key: string, total: number): number {
  if (cursor === undefined) return 0;
  const m = CURSOR.exec(cursor);
  if (m === null) throw new ToolFailure(`cursor: expected the \`next\` string of an earlier read_doc answer, found ${JSON.stringify(cursor)}`);
  if (m[2] !== sha256.slice(0, 16))
    throw new ToolFailure(
      `cursor: the document changed since the answer that gave it (sha256 ${m[2]}…, now ${sha256.slice(0, 16)}…); read it again without cursor`,
    );
  if (m[3] !== key) throw new ToolFailure("cursor: it was given for another view or other ids; pass the same view and ids as the call that returned it");
  const start = Number(m[1]);
  if (start > total) throw new ToolFailure(`cursor: expected a position within the ${total} blocks selected, found ${start}`);
  return start;
}

const utf8Bytes = (s: string): number => Buffer.byteLength(s, "utf8");

/** The answer's JSON text. */
export function readDocAnswer(doc: NomaDocument, sha256: string, options: ReadDocOptions, file: string): string {
  const view = options.view ?? "full";
  const selected = selectBlocks(doc, view, options.ids, file);
  const key = selectionKey(view, options.ids);
  const start = startOf(options.cursor, sha256, key, selected.length);
  // The fast path (block-summary-json.ts) writes what JSON.stringify(blockSummary(…)) / JSON.stringify(outlineEntry(…)) would.
  const item = view === "outline" ? outlineEntryJson : (n: BlockNode) => blockSummaryJson(doc, n);
  const head = `{"sha256":${JSON.stringify(sha256)},"blocks":[`;
  const max = options.maxBytes;
  if (max === undefined) {
    // In chunks (join-in-chunks.ts): what `selected.slice(start).map(item).join(",")` writes, with less for the collector.
    return `${head}${joinInChunks(selected, start, item, ",")}]}`;
  }
  // A budget: blocks are added while they fit; `fit` is the most that fit with the tail saying where to go on.
  const tail = (end: number) => `],"truncated":true,"next":"${end}.${sha256.slice(0, 16)}.${key}","remaining":${selected.length - end}}`;
  const parts: string[] = [];
  let used = utf8Bytes(head);
  let end = start;
  let fit = -1;
  while (end < selected.length) {
    const s = item(selected[end]!);
    const add = utf8Bytes(s) + (end > start ? 1 : 0);
    if (used + add > max) break;
    parts.push(s);
    used += add;
    end++;
    if (used + utf8Bytes(tail(end)) <= max) fit = end;
  }
  if (end === selected.length && used + 2 <= max) return `${head}${parts.join(",")}]}`;
  if (fit === -1) {
    const n = selected[start]!;
    const needed = utf8Bytes(head) + utf8Bytes(item(n)) + utf8Bytes(tail(start + 1));
    throw new ToolFailure(
      `max_bytes: expected a budget that holds the next block (${n.type}${nodeId(n) !== undefined ? ` "${nodeId(n)}"` : ""}, lines ` +
        `${n.pos.line}-${n.endLine}: ${needed} bytes with the answer's envelope), found ${max}`,
    );
  }
  return `${head}${parts.slice(0, fit - start).join(",")}${tail(fit)}`;
}
