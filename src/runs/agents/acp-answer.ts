/**
 * Pure: an ACP agent's final answer, from what it streamed during its prompt turn.
 * An agent speaks in `agent_message_chunk` text pieces, interleaved with tool calls
 * ("let me read the file" — a tool call — "here is the result"). The answer is the
 * text of the last stretch between tool calls that has any text that is not
 * whitespace (a late `tool_call_update` after the final message does not hide it);
 * null when the agent said nothing. The whole transcript (every stretch, in order)
 * goes to the step's `logs/stdout.txt`.
 */

/** What the prompt turn streamed, reduced to what the answer depends on. */
export type AnswerEvent = { kind: "text"; text: string } | { kind: "tool" };

/** The stretches of text between tool calls, in order (empty stretches included). */
export function answerStretches(events: readonly AnswerEvent[]): string[] {
  const out: string[] = [""];
  for (const e of events) {
    if (e.kind === "tool") {
      if (out[out.length - 1] !== "") out.push("");
    } else out[out.length - 1] += e.text;
  }
  return out;
}

/** The final answer: the last stretch with text, trimmed; null when there is none. */
export function finalAnswer(events: readonly AnswerEvent[]): string | null {
  const stretches = answerStretches(events);
  for (let i = stretches.length - 1; i >= 0; i--) {
    const t = stretches[i]!.trim();
    if (t.length > 0) return t;
  }
  return null;
}

/** The transcript of everything the agent said, stretches separated by a blank line. */
export function answerTranscript(events: readonly AnswerEvent[]): string {
  const parts = answerStretches(events).filter((s) => s.length > 0);
  return parts.length > 0 ? `${parts.join("\n\n")}\n` : "";
}
