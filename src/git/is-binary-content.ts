/**
 * Binary detection by content, the way git decides: a NUL byte within the
 * first 8000 bytes makes a file binary (images, PPTX, PDF, archives).
 */
export const BINARY_SNIFF_BYTES = 8000;

export function isBinaryContent(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}
