// A scripted ACP agent, written with the SDK's agent side (`@agentclientprotocol/sdk`, ACP v1):
// `node acp-agent.mjs <behavior.json>` (relative to the session's cwd) speaks ACP over its stdio.
// Behaviour as for the scripted exec agent (test/runs/helpers/run-repo.ts): per role under
// `byRole`, per iteration under `byIteration`, then
//   actions: [ {read: PATH, line?, limit?} | {write: PATH, content} | {permission: {kind, title, locations: [PATH]}, options?: [kinds]}
//            | {terminal: {command, args?, cwd?}} | {say: TEXT} | {tool: TITLE} ]
//   summary, status, stopReason (default end_turn), answer (the raw final message instead of the AgentResponse),
//   linger (keep running after the client closed the connection, as some agents do)
// PATHs may use ${cwd} (the session's cwd), ${step_dir}, ${prev} (the last previous step's directory)
// and ${checkout} (the user's checkout: the run directory is its .norma/runs/<id>), all taken
// from the AgentRequest at the end of the prompt. Each action's result (or the JSON-RPC
// error) is recorded, with the client's capabilities and the session/new request, in files/acp.json
// of the step directory — written through the client like every other file. The final message is
// the AgentResponse, after some talk and a tool call, in two chunks.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const behaviorFile = process.argv[2];
let capabilities = null;
let sessionRequest = null;
let linger = false;

const say = (client, sessionId, text) =>
  client.notify(acp.methods.client.session.update, { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });
const tool = (client, sessionId, id, title) =>
  client.notify(acp.methods.client.session.update, {
    sessionId,
    update: { sessionUpdate: "tool_call", toolCallId: id, title, kind: "other", status: "completed" },
  });

async function attempt(f) {
  try {
    return { ok: await f() };
  } catch (e) {
    return { error: { code: e.code, message: e.message, data: e.data } };
  }
}

const app = acp
  .agent({ name: "scripted-acp-agent" })
  .onRequest(acp.methods.agent.initialize, ({ params }) => {
    capabilities = params.clientCapabilities;
    return { protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {}, agentInfo: { name: "scripted-acp-agent", version: "1.0.0" }, authMethods: [] };
  })
  .onRequest(acp.methods.agent.session.new, ({ params }) => {
    sessionRequest = params;
    return { sessionId: "session-1" };
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const sessionId = params.sessionId;
    const text = params.prompt.map((b) => (b.type === "text" ? b.text : "")).join("");
    const marker = "The full AgentRequest (also in input.json in the step directory):\n";
    const req = JSON.parse(text.slice(text.indexOf(marker) + marker.length));
    const all = JSON.parse(readFileSync(join(sessionRequest.cwd, behaviorFile), "utf8"));
    const byRole = all.byRole?.[req.step.role] ?? all;
    const b = byRole.byIteration?.[String(req.step.iteration)] ?? byRole;
    linger = b.linger === true;
    const vars = {
      cwd: sessionRequest.cwd,
      step_dir: req.paths.step_dir,
      prev: req.context.previous_step_dirs.at(-1) ?? "",
      checkout: resolve(req.paths.run_dir, "../../.."),
    };
    const path = (p) => p.replace(/\$\{(\w+)\}/g, (_, k) => vars[k]);
    const results = [];
    const written = [];
    let n = 0;
    for (const a of b.actions ?? []) {
      if (a.read !== undefined)
        results.push(
          await attempt(() =>
            client.request(acp.methods.client.fs.readTextFile, {
              sessionId,
              path: path(a.read),
              ...(a.line ? { line: a.line } : {}),
              ...(a.limit ? { limit: a.limit } : {}),
            }),
          ),
        );
      else if (a.write !== undefined) {
        const p = path(a.write);
        const r = await attempt(() => client.request(acp.methods.client.fs.writeTextFile, { sessionId, path: p, content: a.content }));
        if (r.ok !== undefined && p.startsWith(`${req.paths.step_dir}/`)) written.push(p.slice(req.paths.step_dir.length + 1));
        results.push(r);
      } else if (a.permission !== undefined) {
        const kinds = a.options ?? ["allow_once", "allow_always", "reject_once", "reject_always"];
        results.push(
          await attempt(() =>
            client.request(acp.methods.client.session.requestPermission, {
              sessionId,
              toolCall: {
                toolCallId: `call-${++n}`,
                kind: a.permission.kind,
                title: a.permission.title,
                locations: (a.permission.locations ?? []).map((l) => ({ path: path(l) })),
              },
              options: kinds.map((k) => ({ optionId: `opt-${k}`, name: k, kind: k })),
            }),
          ),
        );
      } else if (a.terminal !== undefined) {
        results.push(
          await attempt(async () => {
            const t = await client.request(acp.methods.client.terminal.create, {
              sessionId,
              command: a.terminal.command,
              args: a.terminal.args ?? [],
              ...(a.terminal.cwd !== undefined ? { cwd: path(a.terminal.cwd) } : {}),
            });
            const exit = await client.request(acp.methods.client.terminal.waitForExit, { sessionId, terminalId: t.terminalId });
            const output = await client.request(acp.methods.client.terminal.output, { sessionId, terminalId: t.terminalId });
            await client.request(acp.methods.client.terminal.release, { sessionId, terminalId: t.terminalId });
            return { exit, output };
          }),
        );
      } else if (a.say !== undefined) await say(client, sessionId, a.say);
      else if (a.tool !== undefined) await tool(client, sessionId, `tool-${++n}`, a.tool);
    }
    const record = JSON.stringify({ capabilities, session: sessionRequest, results }, null, 2);
    await client.request(acp.methods.client.fs.writeTextFile, { sessionId, path: join(req.paths.step_dir, "files/acp.json"), content: record });
    written.push("files/acp.json");
    await say(client, sessionId, "Let me record what I did.");
    await tool(client, sessionId, "final-tool", "record");
    const answer =
      b.answer ??
      JSON.stringify({
        version: 1,
        status: b.status ?? "ok",
        summary: b.summary ?? `${req.step.role} done over ACP`,
        files: written,
        next_actions: [],
        errors: [],
      });
    await say(client, sessionId, answer.slice(0, 10));
    await say(client, sessionId, answer.slice(10));
    return { stopReason: b.stopReason ?? "end_turn" };
  });

await app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin))).closed;
if (linger) setInterval(() => {}, 60_000);
