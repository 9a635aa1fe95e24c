/**
 * The root configuration's text as the work tree holds it (light: no parser), for
 * callers that only need to know whether it changed before parsing it.
 */
import { readRegularFileIfPresent } from "../fsx/read-regular-file.js";
import { MAX_CONFIG_BYTES_ENV, maxConfigBytes, raiseHint } from "../fsx/size-limits.js";
import { decodeText } from "../fsx/utf8-text.js";
import { join } from "node:path";
import { CONFIG_PATH } from "../layout/checked-path.js";
import { symlinkEscape } from "../fsx/symlink-escape.js";

/** The text of `path` (default `.notarai/config.yaml`) in the work tree, or null when there is none (or it is a link out of the repository). */
export function readConfigText(root: string, path: string = CONFIG_PATH): string | null {
  if (symlinkEscape(root, path) !== null) return null;
  const bytes = readRegularFileIfPresent(join(root, path), path, { maxBytes: maxConfigBytes(), maxBytesHint: raiseHint(MAX_CONFIG_BYTES_ENV) });
  return bytes === null ? null : decodeText(bytes, path);
}
