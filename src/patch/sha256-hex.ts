/**
 * sha256 as lowercase hex (document states, transcript chain links).
 */
import { createHash } from "node:crypto";

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}
