/**
 * The Noma document tree (Noma Agent Protocol v1.0 §6.3).
 *
 * Every node carries `pos.line` and `endLine`: 1-based, inclusive line numbers
 * of the source. For Tier-1 documents (no parse-origin errors) they are exact;
 * for recovered documents they are best-effort hints (§6.2).
 *
 * The tree keeps enough of the source (the document keeps the whole text and
 * each line's offsets) for the patch engine to edit lines in place and leave
 * every untouched byte identical.
 */

/** A directive attribute value after coercion (`true`/`false`, integers, numbers, strings). */
export type AttrValue = string | number | boolean;

/** Where an attribute token sits on its opening line (0-based character offsets, end exclusive). */
export interface AttrToken {
  key: string;
  value: AttrValue;
  /** Offset of the first character of the key. */
  start: number;
  /** Offset just past the token (past the closing quote for quoted values). */
  end: number;
}

export interface Pos {
  line: number;
  column: number;
}

interface NodeBase {
  pos: Pos;
  endLine: number;
}

export interface FrontmatterNode extends NodeBase {
  type: "frontmatter";
  /** The YAML text between the fences, lines joined with `\n`. */
  raw: string;
  /** The parsed YAML value, or `undefined` when the YAML is invalid or empty. */
  data: unknown;
}

export interface SectionNode extends NodeBase {
  type: "section";
  /** Heading depth, 1–6. */
  depth: number;
  title: string;
  /** Canonical id (explicit `{id="…"}`, or the slug with its collision suffix). */
  id?: string;
  /** True when the id came from an explicit `{id="…"}` on the heading. */
  explicitId: boolean;
  /** Attributes of the heading's trailing `{…}` block (including `id`). */
  attrs: Record<string, AttrValue>;
  aliases: readonly string[];
  /** Top-level sections fold the blocks that follow them; sections inside directives are childless. */
  children: BlockNode[];
  /** True for a heading inside a directive: a one-line, childless section. */
  nested: boolean;
}

export interface DirectiveNode extends NodeBase {
  type: "directive";
  name: string;
  /** Number of colons on the opening fence line. */
  colons: number;
  /** Attribute values (read arbitrary keys with `getAttr`; token offsets: `directiveAttrTokens`). */
  attrs: Record<string, AttrValue>;
  /** Canonical id: the `id` attribute when it is a non-empty string. */
  id?: string;
  aliases: readonly string[];
  children: BlockNode[];
  /** Set when the only child is a paragraph: that paragraph's text. */
  body?: string;
  /** False when no closing fence was found (Tier-2 recovery: the block runs to the end of its range). */
  closed: boolean;
}

export interface CodeNode extends NodeBase {
  type: "code";
  lang: string;
  /** Lines between the fences, joined with `\n`. */
  content: string;
  closed: boolean;
}

export interface ParagraphNode extends NodeBase {
  type: "paragraph";
  /** The paragraph's lines joined with `\n` (line-break characters normalised). */
  text: string;
}

export interface ListItemNode extends NodeBase {
  type: "list_item";
  text: string;
  /** `-`, `*`, or the number of an ordered item (e.g. `3.`). */
  marker: string;
}

export interface ListNode extends NodeBase {
  type: "list";
  ordered: boolean;
  children: ListItemNode[];
}

export interface QuoteNode extends NodeBase {
  type: "quote";
  /** The quoted lines without their `>` prefix (and one following space), joined with `\n`. */
  text: string;
}

export interface ThematicBreakNode extends NodeBase {
  type: "thematic_break";
}

export type TableAlign = "left" | "right" | "center" | null;

export interface TableNode extends NodeBase {
  type: "table";
  header: string[];
  align: TableAlign[];
  /** Body rows, each padded or truncated to the header width. */
  rows: string[][];
}

export type BlockNode = SectionNode | DirectiveNode | CodeNode | ParagraphNode | ListNode | QuoteNode | ThematicBreakNode | TableNode;

export type AnyNode = BlockNode | ListItemNode | FrontmatterNode | NomaDocument;

/** A problem found while parsing (Tier-2 recovery or invalid frontmatter). */
export interface ParseProblem {
  severity: "error" | "warning";
  code: string;
  message: string;
  line: number;
  endLine?: number;
  column?: number;
}

export interface NomaDocument extends NodeBase {
  type: "document";
  /** The source text exactly as given. */
  source: string;
  /** Each line's text without its line break (`\r\n`, `\n` or `\r`). */
  lines: string[];
  /** Character offset of each line's first character in `source`; one extra entry: `source.length`. */
  lineStarts: Int32Array;
  frontmatter?: FrontmatterNode;
  children: BlockNode[];
  /** Problems found while parsing; any error here makes the document Tier 2. */
  problems: ParseProblem[];
  /** Canonical ids in document-walk order (may contain duplicates). */
  ids: string[];
  /** Canonical id → aliases registered on that node. */
  aliasesById: Map<string, string[]>;
  /** Alias → canonical id (first registration wins). */
  aliasMap: Map<string, string>;
  /** Canonical id → the first node carrying it. */
  nodeById: Map<string, SectionNode | DirectiveNode>;
  /** Ids carried by more than one node (`duplicate-id`) → every such node, in order. */
  duplicateIds: Map<string, Array<SectionNode | DirectiveNode>>;
}
