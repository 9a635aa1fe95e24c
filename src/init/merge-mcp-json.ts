/**
 * Register our server in a `.mcp.json` text (pure): other servers and keys are
 * kept in their order, the file's indentation and line breaks are kept, and a
 * text that is not valid JSON (or not shaped like `.mcp.json`) is an error
 * naming the position — never overwritten. An existing entry under our name
 * is replaced only when it is one we wrote (`previous`, an earlier version's
 * entry) or with `force`.
 */
import { NomaError } from "../errors/noma-error.js";
import { findJsonSyntaxError } from "../config/json-syntax-error.js";

export type McpJsonAction = "create" | "add" | "upgrade" | "replace" | "unchanged" | "keep";

export interface McpJsonMerge {
  /** The new text (equal to the input for "unchanged" and "keep"). */
  text: string;
  action: McpJsonAction;
}

export class McpJsonError extends NomaError {
  static override readonly errorName: string = "McpJsonError";
  constructor(
    readonly file: string,
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(
      "mcp-json-invalid",
      `${file}${line !== undefined ? `:${line}:${column ?? 1}` : ""}: ${message}; it was left untouched (fix it, or remove it to let init create it)`,
    );
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
}

/** The indentation unit of a JSON text (its first indented line), default two spaces. */
function indentOf(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text);
  return m !== null ? m[1]! : "  ";
}

export interface MergeMcpJsonOptions {
  /** Replace a different entry under `name` (one we did not write). */
  force?: boolean;
  /** Entries earlier versions wrote under `name`: replaced without `force`. */
  previous?: ReadonlyArray<Record<string, unknown>>;
  /** The file name for errors. */
  file?: string;
}

export function mergeMcpJson(text: string | null, name: string, entry: Record<string, unknown>, options: MergeMcpJsonOptions = {}): McpJsonMerge {
  const file = options.file ?? ".mcp.json";
  if (text === null) return { text: `${JSON.stringify({ mcpServers: { [name]: entry } }, null, 2)}\n`, action: "create" };
  const source = text.replace(/^\uFEFF/, "");
  let doc: unknown;
  try {
    doc = JSON.parse(source);
  } catch (e) {
    const where = findJsonSyntaxError(source);
    throw new McpJsonError(file, `not valid JSON (${where?.message ?? (e as Error).message})`, where?.line, where?.column);
  }
  if (!isPlainObject(doc)) throw new McpJsonError(file, "the top level must be a JSON object with an mcpServers object");
  const servers = doc["mcpServers"];
  if (servers !== undefined && !isPlainObject(servers)) throw new McpJsonError(file, '"mcpServers" must be an object mapping server names to their settings');
  const existing = servers?.[name];
  if (existing !== undefined && sameJson(existing, entry)) return { text, action: "unchanged" };
  const ours = existing !== undefined && (options.previous ?? []).some((p) => sameJson(existing, p));
  if (existing !== undefined && !ours && options.force !== true) return { text, action: "keep" };
  const action: McpJsonAction = existing === undefined ? "add" : ours ? "upgrade" : "replace";
  if (servers === undefined) doc["mcpServers"] = { [name]: entry };
  else servers[name] = entry;
  const eol = source.includes("\r\n") ? "\r\n" : "\n";
  let out = JSON.stringify(doc, null, indentOf(source));
  if (eol === "\r\n") out = out.replace(/\n/g, "\r\n");
  const finalNewline = /\r?\n$/.test(source) || source.trim().length === 0 ? eol : "";
  return { text: `${text.startsWith("\uFEFF") ? "\uFEFF" : ""}${out}${finalNewline}`, action };
}
