/**
 * MCP protocol versions this server speaks (the wire is the same for all of
 * them as far as our tools go). `initialize` echoes the client's version when
 * it is one of these, and answers the newest otherwise.
 */
export const SUPPORTED_PROTOCOL_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = "2025-11-25";

export function negotiateProtocolVersion(requested: unknown): ProtocolVersion {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly unknown[]).includes(requested) ? (requested as ProtocolVersion) : LATEST_PROTOCOL_VERSION;
}
