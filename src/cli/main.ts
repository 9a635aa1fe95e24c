#!/usr/bin/env node
/**
 * The `noma-reconcile` bin: declares every command in one place and loads each
 * command's body lazily, so a command pays only for what it imports. This file
 * only translates: it parses argv, runs the command, and turns the returned
 * code (or a thrown error) into the process exit code:
 *   0 clean · 1 findings · 2 usage, configuration or runtime error.
 */
import { cac, type Command } from "cac";
import { TOOL_NAME, TOOL_VERSION } from "../version.js";
import { UsageError } from "./cli-error.js";
import type { CliIO } from "./cli-io.js";

const EXIT_CODES = `  0  clean (warnings allowed)
  1  findings: invalid documents, failed fixtures
  2  usage, configuration or runtime error`;

const io: CliIO = {
  cwd: process.cwd(),
  env: process.env,
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
};

const cli = cac(TOOL_NAME);
const exitSection = { title: "Exit codes", body: EXIT_CODES };

function formatOption(cmd: Command, values: string): Command {
  return cmd.option("--format <format>", `Output format: ${values}`, { default: "text" });
}

let pending: Promise<number> | undefined;
const run = (load: () => Promise<number>): void => {
  pending = load();
};

formatOption(
  cli
    .command("check [...paths]", "Validate .noma documents (default: every .noma file git tracks)")
    .option("--profile <name>", "Validate against this profile, overriding the documents' frontmatter")
    .option("--ignore-rule <code>", "Silence a diagnostic code (repeatable)")
    .option("--stale-days <days>", "Default stale window for ::citation accessed= dates (default 365)")
    .option("--color", "Colour the text output (--no-color to disable; default: on a TTY, honouring NO_COLOR/FORCE_COLOR)"),
  "text | json | github | sarif",
)
  .example("  noma-reconcile check")
  .example("  noma-reconcile check docs/ README.noma --format json")
  .example("  noma-reconcile check thesis.noma --profile research --ignore-rule claim-without-evidence")
  .action((paths: string[], options: Record<string, unknown>) =>
    run(async () => (await import("./commands/check-command.js")).checkCommand(paths, options, io)),
  );

cli
  .command("ids <file>", "List a document's canonical ids and its alias map")
  .option("--format <format>", "Output format: text | json", { default: "text" })
  .example("  noma-reconcile ids thesis.noma --format json")
  .action((file: string, options: Record<string, unknown>) =>
    run(async () => (await import("./commands/ids-command.js")).idsCommand(file, options, io)),
  );

cli
  .command("parse <file>", "Print the parsed document tree (with spans) as JSON")
  .example("  noma-reconcile parse thesis.noma")
  .action((file: string) => run(async () => (await import("./commands/parse-command.js")).parseCommand(file, io)));

cli
  .command("render <file>", "Render a document: normalised Noma source, or its structure as JSON")
  .option("--to <target>", "noma | json", { default: "noma" })
  .example("  noma-reconcile render thesis.noma --to noma > thesis.normalised.noma")
  .action((file: string, options: Record<string, unknown>) =>
    run(async () => (await import("./commands/render-command.js")).renderCommand(file, options, io)),
  );

cli
  .command("verify [dir]", "Run a Noma conformance corpus (Annex C layout) and report PASS/FAIL per fixture")
  .example("  noma-reconcile verify ../shared/conformance")
  .example("  noma-reconcile verify fixtures/conformance")
  .action((dir: string | undefined) =>
    run(async () => (await import("./commands/verify-command.js")).verifyCommand(dir, io)),
  );

cli.help((sections) => {
  sections.push(exitSection);
  return sections;
});
cli.version(TOOL_VERSION);

async function main(): Promise<number> {
  try {
    cli.parse(process.argv, { run: false });
    if (cli.options["help"] === true || cli.options["version"] === true) return 0;
    if (cli.matchedCommand === undefined) {
      const name = cli.args[0];
      io.stderr(name !== undefined ? `${TOOL_NAME}: unknown command "${name}"\n\n` : "");
      const log = console.log;
      console.log = (...parts: unknown[]) => io.stderr(`${parts.join(" ")}\n`);
      try {
        cli.outputHelp();
      } finally {
        console.log = log;
      }
      return 2;
    }
    await cli.runMatchedCommand();
    return pending !== undefined ? await pending : 0;
  } catch (e) {
    const err = e as Error;
    if (err.name === "CACError" || err instanceof UsageError) {
      io.stderr(`${TOOL_NAME}: ${err.message}\nRun \`${TOOL_NAME} ${cli.matchedCommand?.name ?? ""} --help\` for usage.\n`.replace("  --help", " --help"));
      return 2;
    }
    const known = (err as { exitCode?: unknown }).exitCode;
    if (typeof known === "number") {
      io.stderr(`${TOOL_NAME}: ${err.message}\n`);
      return known;
    }
    io.stderr(`${TOOL_NAME}: internal error: ${err.stack ?? err.message}\nThis is a bug in ${TOOL_NAME} ${TOOL_VERSION}; please report it with the command you ran.\n`);
    return 2;
  }
}

process.exitCode = await main();
