/**
 * Hover in a `.noma` document: on a block's id (or an alias), what the block is — its kind,
 * its title, its attributes, how many references point at it (in its document and the
 * chapters of its books); on a link (or an id-valued attribute), the same for the block it
 * leads to, with the target's first lines. A name that resolves nowhere says so.
 */
import { type Hover, MarkupKind, type Position } from "vscode-languageserver/node";
import type { AttrValue } from "../noma/ast.js";
import { lineText } from "../noma/parse-noma.js";
import type { Located } from "./book-lookup.js";
import { atCursor, type Navigation, referencesOf, spanRange } from "./navigation.js";
import type { OpenDocument } from "./open-document.js";

/** Lines of a block shown in a link's hover. */
export const PREVIEW_LINES = 6;

function value(v: AttrValue): string {
  return typeof v === "string" ? JSON.stringify(v) : String(v);
}

/** Markdown inline code that cannot be broken by a backtick in the text. */
function code(text: string): string {
  const ticks = "`".repeat(Math.max(1, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}${ticks.length > 1 ? " " : ""}${text}${ticks.length > 1 ? " " : ""}${ticks}`;
}

function describeBlock(located: Located, references: number, preview: boolean): string {
  const b = located.block;
  const out: string[] = [];
  const where = located.rel !== "" ? ` — ${located.rel}:${b.pos.line}` : ` — line ${b.pos.line}`;
  if (b.type === "section") out.push(`**section** ${code(b.id ?? "")} (heading depth ${b.depth})${where}`, "", `# ${b.title}`);
  else out.push(`**::${b.name}** ${code(b.id ?? "")}${where}`);
  const attrs = Object.entries(b.attrs).filter(([k]) => k !== "id");
  if (attrs.length > 0) out.push("", ...attrs.map(([k, v]) => `- ${code(k)} = ${code(value(v))}`));
  if (b.aliases.length > 0) out.push("", `aliases: ${b.aliases.map(code).join(", ")}`);
  out.push("", `${references} ${references === 1 ? "reference points" : "references point"} at it`);
  if (preview) {
    const last = Math.min(b.endLine, b.pos.line + PREVIEW_LINES - 1);
    const lines: string[] = [];
    for (let l = b.pos.line; l <= last; l++) lines.push(lineText(located.doc, l - 1));
    if (b.endLine > last) lines.push("…");
    const fence = "`".repeat(Math.max(3, ...[...lines.join("\n").matchAll(/`+/g)].map((m) => m[0].length + 1)));
    out.push("", `${fence}noma`, ...lines, fence);
  }
  return out.join("\n");
}

export function hover(nav: Navigation, doc: OpenDocument, pos: Position): Hover | null {
  const at = atCursor(nav, doc, pos);
  if (at === null) return null;
  const range = spanRange(at.target.span);
  if (at.located === null) {
    const name = at.target.kind === "reference" ? at.target.target : at.target.name;
    return {
      range,
      contents: { kind: MarkupKind.Markdown, value: `${code(name)} names no block in this document${at.root !== null ? " nor in its books" : ""}` },
    };
  }
  const count = referencesOf(nav, at.root, at.located, doc).length;
  return { range, contents: { kind: MarkupKind.Markdown, value: describeBlock(at.located, count, at.target.kind === "reference") } };
}
