/**
 * The pure parts of the `acp` backend, with fixed cases and fast-check properties: the final
 * answer taken from what an agent streamed (acp-answer.ts), the answer to a permission request
 * by policy (acp-permission.ts) and the line window of `fs/read_text_file` (acp-bridge.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerTranscript, finalAnswer, type AnswerEvent } from "../../src/runs/agents/acp-answer.js";
import { sliceLines } from "../../src/runs/agents/acp-bridge.js";
import { decidePermission, permissionKind, type PermissionOptionLike } from "../../src/runs/agents/acp-permission.js";
import { extractResponse } from "../../src/runs/agents/extract-response.js";
import { AGENT_ROLES } from "../../src/runs/agent-step.js";
import { PERMISSION_KINDS } from "../../src/runs/run-config.js";

const text = (t: string): AnswerEvent => ({ kind: "text", text: t });
const TOOL: AnswerEvent = { kind: "tool" };
const events = fc.array(fc.oneof(fc.string().map(text), fc.constant(TOOL)), { maxLength: 30 });

describe("the final answer of an ACP agent", () => {
  it("is the last stretch of text between tool calls that has any", () => {
    expect(finalAnswer([])).toBeNull();
    expect(finalAnswer([text("  \n")])).toBeNull();
    expect(finalAnswer([text('{"version":'), text(" 1}")])).toBe('{"version": 1}');
    expect(finalAnswer([text("Let me look."), TOOL, text('{"a"'), text(":1}")])).toBe('{"a":1}');
    // A late tool-call update after the final message does not hide it.
    expect(finalAnswer([text("thinking"), TOOL, text("the answer"), TOOL, text(" "), TOOL])).toBe("the answer");
    expect(answerTranscript([text("Let me look."), TOOL, TOOL, text("done")])).toBe("Let me look.\n\ndone\n");
    expect(answerTranscript([TOOL])).toBe("");
    expect(extractResponse("acp", '```json\n{"version": 1}\n```')).toEqual({ ok: true, text: '{"version": 1}' });
  });

  it("properties: tool calls alone never change it; text after a tool call replaces it; without tool calls it is all the text", () => {
    fc.assert(
      fc.property(events, fc.string(), (es, t) => {
        expect(finalAnswer([...es, TOOL])).toBe(finalAnswer(es));
        expect(finalAnswer([...es, TOOL, text(t)])).toBe(t.trim().length > 0 ? t.trim() : finalAnswer(es));
        const texts = es.filter((e): e is { kind: "text"; text: string } => e.kind === "text").map((e) => e.text);
        if (es.every((e) => e.kind === "text")) expect(finalAnswer(es)).toBe(texts.join("").trim() || null);
        const transcript = answerTranscript(es);
        for (const piece of texts) expect(transcript).toContain(piece);
        const answer = finalAnswer(es);
        if (answer !== null) expect(transcript).toContain(answer);
      }),
      { numRuns: 500 },
    );
  });
});

describe("fs/read_text_file's window: line (1-based) and limit", () => {
  it("takes whole lines, breaks kept", () => {
    expect(sliceLines("a\nb\nc", 2, 1)).toBe("b\n");
    expect(sliceLines("a\nb\nc", 2, null)).toBe("b\nc");
    expect(sliceLines("a\nb\nc", null, 2)).toBe("a\nb\n");
    expect(sliceLines("a\nb\n", 5, 1)).toBe("");
  });

  it("properties: no window is the text; consecutive windows put the text back together", () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 5 }), (t, size) => {
        expect(sliceLines(t, null, null)).toBe(t);
        expect(sliceLines(t, 1, 1_000_000)).toBe(t);
        const lines = t.split("\n").length;
        let joined = "";
        for (let from = 1; from <= lines; from += size) joined += sliceLines(t, from, size);
        expect(joined).toBe(t);
      }),
      { numRuns: 500 },
    );
  });
});

const ALL_OPTIONS: PermissionOptionLike[] = ["allow_once", "allow_always", "reject_once", "reject_always"].map((k) => ({ optionId: `o-${k}`, kind: k }));
const insideRepo = (p: string): boolean => p.startsWith("/repo/");
const insideStep = (p: string, place: "worktree" | "step_dir"): boolean => (place === "step_dir" ? p.startsWith("/repo/.norma/step/") : insideRepo(p));

describe("permission requests answered by policy", () => {
  it("by default: writes only inside the work tree (plan and check: the step directory), the rest allowed; one-time options first", () => {
    const ask = (kind: string | null, locations: string[], role: "plan" | "act" = "act", options = ALL_OPTIONS) =>
      decidePermission({ toolCall: { kind, locations: locations.map((path) => ({ path })) }, options }, undefined, role, insideStep);
    expect(ask("edit", ["/repo/src/a.ts"])).toEqual({
      allow: true,
      kind: "write",
      reason: "permissions.write is worktree and every location is inside the work tree",
      outcome: { outcome: "selected", optionId: "o-allow_once" },
    });
    expect(ask("delete", ["/repo/src/a.ts", "/etc/passwd"])).toEqual({
      allow: false,
      kind: "write",
      reason: 'permissions.write is worktree and "/etc/passwd" is outside the work tree',
      outcome: { outcome: "selected", optionId: "o-reject_once" },
    });
    expect(ask("move", []).reason).toBe(
      "permissions.write is worktree and the tool call names no location, so it cannot be shown to stay inside the work tree",
    );
    expect(ask("edit", ["/repo/src/a.ts"], "plan")).toMatchObject({
      allow: false,
      reason: 'permissions.write is worktree and "/repo/src/a.ts" is outside the step directory',
    });
    expect(ask("edit", ["/repo/.norma/step/plan.md"], "plan").allow).toBe(true);
    expect(ask("execute", [])).toMatchObject({ allow: true, kind: "execute", reason: "permissions.execute is allow" });
    expect(ask("read", ["/etc/hosts"]).allow).toBe(true);
    expect(ask(null, []).kind).toBe("other");
    expect(ask("edit", ["/repo/a"], "act", [{ optionId: "always", kind: "allow_always" }]).outcome).toEqual({ outcome: "selected", optionId: "always" });
    expect(ask("edit", ["/repo/a"], "act", [{ optionId: "no", kind: "reject_once" }])).toEqual({
      allow: false,
      kind: "write",
      reason: "permissions.write is worktree and every location is inside the work tree; the agent offered no allow option, so the request is cancelled",
      outcome: { outcome: "cancelled" },
    });
    expect(decidePermission({ toolCall: { kind: "fetch" }, options: ALL_OPTIONS }, { fetch: "deny" }, "do", insideStep).outcome).toEqual({
      outcome: "selected",
      optionId: "o-reject_once",
    });
    expect(["read", "search", "edit", "delete", "move", "execute", "fetch", "think", "switch_mode", "other", "new_kind"].map(permissionKind)).toEqual([
      "read",
      "read",
      "write",
      "write",
      "write",
      "execute",
      "fetch",
      "other",
      "other",
      "other",
      "other",
    ]);
  });

  it("properties: an allowed answer selects an allow option the agent offered, a denial a reject option or cancels; the rule is the kind's", () => {
    const decision = fc.constantFrom("allow", "deny", "worktree");
    fc.assert(
      fc.property(
        fc.constantFrom("read", "search", "edit", "delete", "move", "execute", "fetch", "think", "other", null),
        fc.array(fc.constantFrom("/repo/a", "/repo/.norma/step/x", "/etc/x", "relative"), { maxLength: 4 }),
        fc.subarray(ALL_OPTIONS),
        fc.record({ read: decision, write: decision, execute: decision, fetch: decision, other: decision }, { requiredKeys: [] }),
        fc.constantFrom(...AGENT_ROLES),
        (kind, locations, options, policy, role) => {
          const a = decidePermission({ toolCall: { kind, locations: locations.map((path) => ({ path })) }, options }, policy as never, role, insideStep);
          expect(PERMISSION_KINDS).toContain(a.kind);
          if (a.outcome.outcome === "selected") {
            const chosen = options.find((o) => o.optionId === (a.outcome as { optionId: string }).optionId);
            expect(chosen?.kind.startsWith(a.allow ? "allow_" : "reject_")).toBe(true);
          } else expect(a.allow).toBe(false);
          const rule = (policy as Record<string, string>)[a.kind];
          if (rule === "deny") expect(a.allow).toBe(false);
          if (rule === "worktree" && locations.length === 0) expect(a.allow).toBe(false);
          if (a.allow && rule === "worktree")
            expect(locations.every((l) => insideStep(l, a.kind === "write" && (role === "plan" || role === "check") ? "step_dir" : "worktree"))).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
