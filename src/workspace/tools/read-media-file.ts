/**
 * `read_media_file` (the MCP filesystem server's): any file, base64, with its MIME type
 * (by extension: media-type.ts) — over MCP an image or audio content block, or an
 * embedded resource (`file://` URI, blob) for anything else; the structured answer
 * carries the same block as `content`, with the path, size and sha256.
 */
import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { blockKind, mediaTypeOf } from "../media-type.js";
import { MAX_FILE_BYTES } from "../workspace-schemas.js";
import type { Workspace } from "../workspace.js";
import { readCheckedFile } from "./read-file.js";
import type { ContentBlock, ToolOutput } from "./tool-output.js";

export interface ReadMediaFileResult {
  success: true;
  content: ContentBlock[];
  path: string;
  mime_type: string;
  bytes: number;
  sha256: string;
}

export function readMediaFileTool(ws: Workspace, args: { path: string }): ToolOutput<ReadMediaFileResult> {
  const c = ws.check(args.path, "read");
  const { bytes } = readCheckedFile(ws, c, MAX_FILE_BYTES);
  const mime = mediaTypeOf(c.rel);
  const data = bytes.toString("base64");
  const kind = blockKind(mime);
  const block: ContentBlock =
    kind === "resource"
      ? { type: "resource", resource: { uri: pathToFileURL(join(ws.root, c.rel)).href, mimeType: mime, blob: data } }
      : { type: kind, data, mimeType: mime };
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return {
    body: { success: true, content: [block], path: c.rel, mime_type: mime, bytes: bytes.length, sha256 },
    ledgerPath: c.rel,
    details: { bytes: bytes.length, sha256, mime_type: mime },
    blocks: [block],
  };
}
