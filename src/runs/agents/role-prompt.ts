/**
 * The prompt given to a one-shot coding CLI (norma §11–§13): the role's job,
 * the files it must write (check: verdict.json and scorecard.md; act:
 * patch.diff and/or patch.noma.json, reconciled.json), that it writes only
 * inside the step directory, and that it prints nothing but the AgentResponse
 * JSON on stdout, with `files` relative to the step directory. With our MCP
 * server (`mcp --step`), it names the role's tools: plan and check read; do and
 * act may also change repository files through the workspace tools (the only
 * writes outside the step directory). The full AgentRequest is included (it is
 * also in `input.json`). An ACP agent (`acp: true`) reads, writes and runs commands
 * through its client (our ACP client, run-acp-agent.ts) and gives its answer as its
 * final message rather than on stdout.
 */
import type { AgentRequest } from "../agent-protocol.js";

const RESPONSE_SHAPE =
  `{"version": 1, "status": "ok" | "fail", "summary": "what happened, 1-3 sentences", "files": ["paths you wrote, relative to the step directory"], ` +
  `"next_actions": ["…"], "errors": ["…"]}`;

const ROLE_TASKS: Record<AgentRequest["step"]["role"], string[]> = {
  plan: [
    "Your role is PLAN: outline the approach and intent for this cycle, based on the goal, the acceptance criteria and the previous steps.",
    "Write plan.md (the outline) in the step directory.",
    "Do not change any repository file. Do not write patch.diff.",
  ],
  do: [
    "Your role is DO: gather evidence or execute the work the plan describes.",
    "Write evidence under files/ in the step directory (e.g. files/commands.txt, files/run.log).",
    'If you reviewed changed governed files against their spec and they now agree, list them in reconciled.json: [{"spec": ".notarai/x.spec.yaml", ' +
      '"path": "src/x.ts", "note": "why they agree"}].',
    "Do not write patch.diff.",
  ],
  check: [
    "Your role is CHECK: evaluate the evidence against EVERY acceptance criterion.",
    'Write verdict.json: {"version": 1, "verdict": "PASS" | "FAIL", "criteria": [{"id": "AC1", "text": "…", "pass": true, "evidence": "files/…"}], ' +
      '"metrics": {}, "blockers": [], "recommended_fix": []}. The verdict is PASS only if every criterion passes.',
    "Write scorecard.md: a human-readable summary (one line per criterion, with its evidence).",
    "Do not change any repository file. Do not write patch.diff.",
  ],
  act: [
    "Your role is ACT: propose the changes that make the failed criteria pass (read the last check step's verdict.json and scorecard.md).",
    "Propose code or text changes as patch.diff: a unified diff with paths relative to the repository root that applies with `git apply` (the loop " +
      "applies it; do not apply it yourself) — or, when the MCP server below offers them, make them with the workspace tools edit_file / apply_patch.",
    'Propose edits of .noma documents as patch.noma.json: [{"file": "docs/x.noma", "ops": [Noma patch ops addressing blocks by canonical id]}]; the ' +
      "loop applies them through the patch engine, which records a transcript. Read the documents first (MCP tool read_doc or list_ids) for ids and " +
      "hashes.",
    'For every changed file a spec governs that you reviewed — including the files your own patches change — write reconciled.json: [{"spec": ' +
      '".notarai/x.spec.yaml", "path": "src/x.ts", "note": "why code, spec and docs now agree"}].',
    "In summary, say which criteria you target and why.",
  ],
};

/** What the role may do with our MCP server (`mcp --step`, which offers only the role's tools). */
const READ_ONLY_LINE =
  "The noma-reconcile MCP server is available, with read-only tools: list_affected_specs, get_spec_diff and get_changed_artifacts show what " +
  "drifted; read_doc, list_ids and validate_doc read .noma documents; read_file and list_files read the repository; run_status shows this run's " +
  "steps and last verdict.";

const MCP_LINES: Record<AgentRequest["step"]["role"], string> = {
  plan: READ_ONLY_LINE,
  check: READ_ONLY_LINE,
  do:
    "The noma-reconcile MCP server is available: list_affected_specs, get_spec_diff, get_changed_artifacts, read_doc, list_ids, validate_doc, " +
    "read_file, list_files and run_status read; the workspace tools edit_file and apply_patch change repository files (contained in the repository, " +
    "the previous version archived, every request in the evidence ledger) and run_command, run_tests and build_workspace run allowlisted commands. The " +
    "loop records every file you change; the next check judges them.",
  act:
    "The noma-reconcile MCP server is available: list_affected_specs, get_spec_diff, get_changed_artifacts, read_doc, list_ids, validate_doc, " +
    "read_file, list_files and run_status read; the workspace tools edit_file and apply_patch change repository files directly (contained in the " +
    "repository, the previous version archived, every request in the evidence ledger) — an alternative to patch.diff — and run_command, run_tests and " +
    "build_workspace run allowlisted commands. Existing .noma documents change only through patch.noma.json. The loop records every file you change " +
    "and counts it against the budgets; the next check judges them.",
};

const ACP_RULE: Record<"write" | "read", string> = {
  write:
    "- Read and write files through this client's file system (fs/read_text_file, fs/write_text_file) and run commands in its terminal: your files " +
    "go in the step directory; repository files change the same way (contained in the repository, the previous version archived, every request in " +
    "the evidence ledger), and a command runs only when the allowlist names it. Permission requests are answered by the run's policy.",
  read:
    "- Read files through this client's file system (fs/read_text_file); write only inside the step directory (fs/write_text_file). Repository files " +
    "are read-only to you and no command runs. Permission requests are answered by the run's policy.",
};

const WRITE_RULE: Record<"tools" | "none", string> = {
  tools:
    "- Write files only inside the step directory, except the repository changes you make through the workspace tools (edit_file, apply_patch); " +
    "never modify, create or delete repository files any other way.",
  none: "- Write only inside the step directory. Never modify, create or delete files elsewhere.",
};

export function rolePrompt(request: AgentRequest, options: { mcp: boolean; acp?: boolean }): string {
  const r = request;
  const ac = r.norma.acceptance_criteria.map((c) => `- ${c.id}: ${c.text}`).join("\n");
  const prev = r.context.previous_step_dirs.length > 0 ? r.context.previous_step_dirs.map((d) => `- ${d}`).join("\n") : "- (none: this is the first step)";
  return [
    `You are the ${r.step.role} agent of a noma-reconcile run (the norma plan → do → check → act loop): run ${r.run_id}, step ${r.step.index}, ` +
      `iteration ${r.step.iteration}.`,
    "",
    `Goal: ${r.goal}`,
    "",
    "Acceptance criteria:",
    ac.length > 0 ? ac : "- (none given)",
    "",
    `Repository root: ${r.paths.repo_root}`,
    options.acp === true && (r.step.role === "do" || r.step.role === "act")
      ? `Step directory (where you write your files; repository files change only through this client): ${r.paths.step_dir}`
      : options.mcp && (r.step.role === "do" || r.step.role === "act")
        ? `Step directory (where you write your files; repository files change only through the workspace tools): ${r.paths.step_dir}`
        : `Step directory (the ONLY place you may write files): ${r.paths.step_dir}`,
    "Previous step directories (read their output.json, plan.md, verdict.json, scorecard.md, files/):",
    prev,
    "",
    ...ROLE_TASKS[r.step.role],
    "",
    options.mcp
      ? MCP_LINES[r.step.role]
      : options.acp === true
        ? "Read the repository through this client; propose changes only as the files above say."
        : "Read the repository with your own tools; propose changes only through the files above.",
    "",
    "Rules:",
    options.acp === true
      ? ACP_RULE[r.step.role === "do" || r.step.role === "act" ? "write" : "read"]
      : WRITE_RULE[options.mcp && (r.step.role === "do" || r.step.role === "act") ? "tools" : "none"],
    "- Keep every path in `files` relative to the step directory (no absolute paths, no ..).",
    options.acp === true
      ? `- When you are done, end your turn with a final message that is ONLY the AgentResponse JSON object — no prose, no Markdown, no code ` +
        `fence: ${RESPONSE_SHAPE}`
      : `- When you are done, print ONLY the AgentResponse JSON object on stdout — no prose, no Markdown, no code fence: ${RESPONSE_SHAPE}`,
    "",
    "The full AgentRequest (also in input.json in the step directory):",
    JSON.stringify(r, null, 2),
    "",
  ].join("\n");
}
