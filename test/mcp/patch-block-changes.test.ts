/**
 * MCP `patch_block` reports what a patch changed in the document's diagnostics
 * (`diagnostic_changes`: introduced, resolved, totals), beside the fields it always had,
 * through the real server; the result matches the tool's output schema (the client checks).
 */
import { describe, expect, it } from "vitest";
import { tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "./helpers/mcp-client.js";

function claims(n: number): string {
  const out = ["# Claims", ""];
  for (let i = 0; i < n; i++) out.push(`::claim{id="c${i}" confidence=0.5}`, `Claim ${i}.`, "::", "");
  return out.join("\n");
}

interface Changes {
  introduced: Array<{ code: string; nodeId?: string; pos?: { line: number } }>;
  resolved: Array<{ code: string; nodeId?: string; pos?: { line: number } }>;
  totals: Record<string, number>;
}

describe("patch_block diagnostic_changes", () => {
  it("names what the patch introduced and resolved, and counts the rest", async () => {
    const repo = tempRepo({ "claims.noma": claims(1500) });
    const c = new McpClient(repo);
    const quiet = await c.ok<{ ok: boolean; post_validation: string; diagnostics: unknown[]; diagnostic_changes: Changes }>("patch_block", {
      file: "claims.noma",
      op: { op: "update_attribute", id: "c700", key: "confidence", value: 0.9 },
    });
    expect(quiet.ok).toBe(true);
    expect(quiet.post_validation).toBe("warn");
    expect(quiet.diagnostics).toHaveLength(1500);
    expect(quiet.diagnostic_changes).toEqual({
      introduced: [],
      resolved: [],
      totals: { introduced: 0, resolved: 0, unchanged: 1500, before: 1500, after: 1500 },
    });
    const r = await c.ok<{ diagnostic_changes: Changes }>("patch_block", {
      file: "claims.noma",
      ops: [
        { op: "add_block", parent: "claims", position: 0, content: '::evidence{for="c9"}\nMeasured.\n::' },
        { op: "update_attribute", id: "c3", key: "confidence", value: 7 },
      ],
    });
    expect(r.diagnostic_changes.introduced).toEqual([
      expect.objectContaining({ code: "claim-invalid-confidence", nodeId: "c3", pos: { line: 19, column: 1 } }),
    ]);
    expect(r.diagnostic_changes.resolved).toEqual([expect.objectContaining({ code: "claim-without-evidence", nodeId: "c9", pos: { line: 39, column: 1 } })]);
    expect(r.diagnostic_changes.totals).toEqual({ introduced: 1, resolved: 1, unchanged: 1499, before: 1500, after: 1500 });
    await c.close();
  });
});
