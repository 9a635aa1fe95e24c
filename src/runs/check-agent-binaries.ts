/** Fail before anything starts when a configured agent's program is missing. */
import type { Role } from "../layout/norma-layout.js";
import { findExecutable } from "./agents/find-executable.js";
import type { AgentConfig, RunConfig } from "./run-config.js";
import { RunSetupError } from "./run-setup-error.js";

const CLI_NAMES = { codex: "the Codex CLI", claude: "Claude Code", gemini: "the Gemini CLI", opencode: "OpenCode" } as const;

export function checkAgentBinaries(root: string, config: RunConfig, env: NodeJS.ProcessEnv): void {
  const problems: string[] = [];
  for (const [role, agent] of Object.entries(config.agents) as Array<[Role, AgentConfig]>) {
    if (agent.type === "builtin") continue;
    const bin = agent.type === "exec" || agent.type === "acp" ? agent.cmd[0]! : agent.type;
    if (findExecutable(bin, env, root) === null) {
      problems.push(
        agent.type === "exec" || agent.type === "acp"
          ? `agents.${role}: ${bin}: not found (${bin.includes("/") ? "relative to the repository root" : "on PATH"}); fix cmd in .norma/config.json`
          : `agents.${role}: the ${bin} binary was not found on PATH; install ${CLI_NAMES[agent.type]} or choose another agent type in .norma/config.json`,
      );
    }
  }
  if (problems.length > 0) throw new RunSetupError(`cannot start the run:\n${problems.map((p) => `  ${p}`).join("\n")}`);
}
