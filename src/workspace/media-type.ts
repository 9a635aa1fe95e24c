/**
 * Pure: a file's MIME type by its extension, for read_media_file — the image and audio
 * types the MCP filesystem server sends as image / audio content, and a few common
 * others (sent, like every other file, as an embedded resource).
 */
const TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  svg: "image/svg+xml",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  flac: "audio/flac",
  pdf: "application/pdf",
  json: "application/json",
  txt: "text/plain",
  md: "text/markdown",
  html: "text/html",
  csv: "text/csv",
  zip: "application/zip",
};

export const DEFAULT_MEDIA_TYPE = "application/octet-stream";

export function mediaTypeOf(path: string): string {
  const dot = path.lastIndexOf(".");
  if (dot === -1 || dot < path.lastIndexOf("/")) return DEFAULT_MEDIA_TYPE;
  return TYPES[path.slice(dot + 1).toLowerCase()] ?? DEFAULT_MEDIA_TYPE;
}

/** The MCP content block kind for a MIME type: image and audio are shown as such, anything else is an embedded resource. */
export function blockKind(mime: string): "image" | "audio" | "resource" {
  return mime.startsWith("image/") ? "image" : mime.startsWith("audio/") ? "audio" : "resource";
}
