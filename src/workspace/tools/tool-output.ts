/**
 * What a workspace tool hands back to the dispatcher: the NOA response body and what
 * goes into the evidence ledger for it; for the MCP binding, the text a client reads
 * when it is not the body's JSON.
 */
export interface ToolOutput<B extends object = Record<string, unknown>> {
  body: B;
  /** The ledger entry's path (repo-relative, "" when the request names none). */
  ledgerPath: string;
  details: Record<string, unknown>;
  /**
   * The MCP text block, when it is not the body's JSON: the tools named after the MCP
   * filesystem server's answer as it does (a file's text, a listing, a diff), the body
   * carrying the same text as `content` beside its structured fields.
   */
  text?: string;
  /** MCP content blocks instead of a text block (read_media_file: an image, audio, or an embedded resource). */
  blocks?: ContentBlock[];
}

/** An MCP content block a workspace tool answers with. */
export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; data: string; mimeType: string }
  | { type: "resource"; resource: { uri: string; mimeType: string; blob: string } };
