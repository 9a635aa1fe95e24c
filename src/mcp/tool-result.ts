/**
 * MCP `tools/call` results. A success carries `structuredContent` and the same
 * JSON as a text block (read_doc: the text block only, see TextAnswer); a failure the caller must see (bad arguments, a path
 * outside the repository, a missing file, a system fault) is `isError: true`
 * with the message as text and no `structuredContent` (it would not match the
 * tool's outputSchema, which clients validate).
 */
import { type ErrorKind, NomaError } from "../errors/noma-error.js";
export interface TextContent {
  type: "text";
  text: string;
}

/** An image, audio or embedded-resource block (read_media_file). */
export type MediaContent =
  | { type: "image" | "audio"; data: string; mimeType: string }
  | { type: "resource"; resource: { uri: string; mimeType: string; blob: string } };

export interface ToolResult {
  content: Array<TextContent | MediaContent>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function toolSuccess(value: object): ToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> };
}

/**
 * A handler's answer sent as this text only, without `structuredContent`: the tools whose catalog
 * entry says `textAnswer` (read_doc), whose JSON the handler writes itself.
 */
export class TextAnswer {
  constructor(readonly text: string) {}
}

export function toolText(text: string): ToolResult {
  return { content: [{ type: "text", text }] };
}

export function toolFailure(message: string): ToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** Thrown by a tool handler for an `isError` result with this message. */
export class ToolFailure extends NomaError {
  static override readonly errorName: string = "ToolFailure";
  static override readonly kind: ErrorKind = "usage";
  constructor(message: string) {
    super("tool-failure", message);
  }
}
