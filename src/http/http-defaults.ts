/**
 * `serve --http`'s defaults, for the server (serve-workspace-http.ts) and for the help that
 * states them (main.ts). Dependency-free: the bin's help reads them without loading the server.
 */
export const DEFAULT_HTTP_PORT = 7878;
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
/** A request's headers must arrive within this time (ms), else 408 and the connection is closed. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** A whole request (headers and body) must arrive within this time (ms). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** Connections open at once; more are closed as they arrive. */
export const DEFAULT_MAX_CONNECTIONS = 64;
