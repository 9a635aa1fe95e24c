/**
 * What the gate prints on stdout, in each agent's own shape (pure). Its exit status is 0
 * whenever it answers: the answer is the JSON.
 *
 * - Claude Code and Codex: a refusal before the tool runs is
 *   `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":…}}`
 *   (the reason goes to the agent); context after it is
 *   `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":…}}`. Letting a tool
 *   run prints nothing: the gate never answers "allow", which would skip the user's own
 *   permission rules.
 * - Gemini CLI: `{"decision":"deny","reason":…}` before, `{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":…}}`
 *   after, and `{}` for nothing to say (it parses stdout as JSON).
 */
import type { AgentHookInput } from "./agent-hook-input.js";

export type GateAnswer = { kind: "allow" } | { kind: "deny"; reason: string } | { kind: "context"; text: string };

/** The stdout text for `answer` (with its final newline), or "" for none. */
export function renderGateAnswer(input: Pick<AgentHookInput, "dialect" | "event">, answer: GateAnswer): string {
  const gemini = input.dialect === "gemini";
  switch (answer.kind) {
    case "allow":
      return gemini ? "{}\n" : "";
    case "deny":
      return `${JSON.stringify(
        gemini
          ? { decision: "deny", reason: answer.reason }
          : { hookSpecificOutput: { hookEventName: input.event, permissionDecision: "deny", permissionDecisionReason: answer.reason } },
      )}\n`;
    case "context":
      return `${JSON.stringify({ hookSpecificOutput: { hookEventName: input.event, additionalContext: answer.text } })}\n`;
  }
}
