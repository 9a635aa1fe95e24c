/**
 * The AgentResponse text inside what each backend prints on stdout:
 * `exec` and `codex` print it as it is; `claude --output-format json` wraps
 * the final text in `{"result": …}`; `gemini --output-format json` in
 * `{"response": …}`; `opencode run --format json` prints events, one JSON
 * object per line: the answer is the text (`text` events' `part.text`) of
 * the last step (`step_start`) that has any; for `acp` the driver (run-acp-agent.ts) passes the
 * agent's final message (acp-answer.ts). A model that wrapped the JSON in one Markdown code fence is
 * forgiven (only when the fence is the whole text). Anything else is a
 * protocol error, reported with what was found.
 */
import type { AgentType } from "../run-config.js";

export type Extracted = { ok: true; text: string } | { ok: false; problem: string };

function unfence(text: string): string {
  const t = text.trim();
  const m = /^```[a-zA-Z]*\r?\n([\s\S]*?)\r?\n```$/.exec(t);
  return m !== null ? m[1]!.trim() : t;
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function extractResponse(type: Exclude<AgentType, "builtin">, stdout: string): Extracted {
  switch (type) {
    case "exec":
      return { ok: true, text: stdout.trim() };
    case "codex":
    case "acp":
      return { ok: true, text: unfence(stdout) };
    case "claude": {
      const o = parseObject(stdout.trim());
      if (o === null) return { ok: false, problem: "claude printed no JSON result object (--output-format json)" };
      if (o["is_error"] === true) return { ok: false, problem: `claude reported an error: ${String(o["result"] ?? o["subtype"] ?? "unknown")}` };
      if (typeof o["result"] !== "string") return { ok: false, problem: "claude's JSON output has no result text" };
      return { ok: true, text: unfence(o["result"]) };
    }
    case "gemini": {
      const o = parseObject(stdout.trim());
      if (o === null) return { ok: false, problem: "gemini printed no JSON object (--output-format json)" };
      const err = o["error"];
      if (err !== undefined && err !== null)
        return {
          ok: false,
          problem:
            `gemini reported an error: ` +
            `${typeof err === "object" ? String((err as Record<string, unknown>)["message"] ?? JSON.stringify(err)) : String(err)}`,
        };
      if (typeof o["response"] !== "string") return { ok: false, problem: "gemini's JSON output has no response text" };
      return { ok: true, text: unfence(o["response"]) };
    }
    case "opencode": {
      // Text parts arrive as `text` events; a `step_start` begins a new model step. The answer is
      // the text of the last step that has any (a final step may only finish, with no text).
      let step = "";
      let last: string | null = null;
      let error: string | null = null;
      for (const line of stdout.split("\n")) {
        const o = parseObject(line.trim());
        if (o === null) continue;
        if (o["type"] === "step_start") step = "";
        else if (o["type"] === "text") {
          const part = o["part"] as Record<string, unknown> | undefined;
          if (typeof part?.["text"] === "string") {
            step += part["text"];
            last = step;
          }
        } else if (o["type"] === "error") {
          const e = o["error"] as Record<string, unknown> | string | undefined;
          error = typeof e === "string" ? e : String((e as Record<string, unknown> | undefined)?.["message"] ?? JSON.stringify(e ?? o));
        }
      }
      if (last === null)
        return { ok: false, problem: error !== null ? `opencode reported an error: ${error}` : "opencode printed no text event (--format json)" };
      return { ok: true, text: unfence(last) };
    }
  }
}
