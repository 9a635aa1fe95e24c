/**
 * Document URIs and file paths. Editors name documents by URI; the library names files by
 * repository-relative POSIX path. Only `file:` URIs have a path (an unsaved buffer's
 * `untitled:` URI has none: it is judged alone).
 */
import { fileURLToPath, pathToFileURL } from "node:url";

/** The absolute path of a `file:` URI, or undefined for any other scheme (or a malformed URI). */
export function uriPath(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** The `file:` URI of an absolute path. */
export function pathUri(abs: string): string {
  return pathToFileURL(abs).href;
}
