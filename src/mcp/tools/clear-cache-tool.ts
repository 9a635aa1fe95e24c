/** MCP `clear_cache` over the library's `clearCache`. */
import { clearCache, type ClearCacheResult } from "../../reconcile/clear-cache.js";
import { requireRepo, type ToolContext } from "../tool-context.js";

export async function clearCacheTool(_args: Record<string, never>, ctx: ToolContext): Promise<ClearCacheResult> {
  return clearCache(requireRepo(ctx));
}
