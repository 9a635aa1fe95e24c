/**
 * `serve --http`'s defaults, for the server (serve-workspace-http.ts) and for the help that
 * states them (main.ts). Dependency-free: the bin's help reads them without loading the server.
 */
export const DEFAULT_HTTP_PORT = 7878;
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
