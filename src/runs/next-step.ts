/** The loop's order (norma §5), pure: what comes after the committed steps. */
import type { Role } from "../layout/norma-layout.js";
import type { StepRow, Verdict } from "./norma-schema.js";

/** A role and iteration, or nothing (the last check passed). A failed step is retried. */
export function nextStep(steps: readonly StepRow[], verdict: Verdict | null): { role: Role; iteration: number } | null {
  const last = steps[steps.length - 1];
  if (last === undefined) return { role: "plan", iteration: 1 };
  const it = Math.max(1, last.iteration);
  if (last.status === "fail") return { role: last.role, iteration: it };
  switch (last.role) {
    case "plan":
      return { role: "do", iteration: it };
    case "do":
      return { role: "check", iteration: it };
    case "check":
      return verdict === "PASS" ? null : { role: "act", iteration: it };
    case "act":
      return { role: "plan", iteration: it + 1 };
  }
}
