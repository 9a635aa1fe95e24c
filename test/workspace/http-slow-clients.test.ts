/**
 * `serve --http` against slow and too many clients (issue 33.10), over real sockets to the
 * real binary: headers trickled one line at a time, or a body one byte at a time, get a 408
 * (JSON body) and the connection closed once the configured timeout passes; connections over
 * --max-connections are closed as they arrive while the open ones go on. Tiny timeouts are
 * configured so the test waits for the server's answer, never for a clock (a generous upper
 * bound only catches a server that never answers).
 */
import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { tempRepo } from "../helpers/temp-repo.js";
import { HttpServer, TEST_TOKEN } from "./helpers/http-server.js";

/** A raw connection: what it received and when it closed. */
interface Raw {
  socket: Socket;
  received(): string;
  closed: Promise<string>;
}

function open(url: string): Promise<Raw> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    let data = "";
    const socket = connect(Number(u.port), u.hostname, () => resolve({ socket, received: () => data, closed }));
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => (data += d));
    socket.on("error", () => undefined); // a reset is a close here
    const closed = new Promise<string>((r) => socket.on("close", () => r(data)));
    socket.once("error", reject);
  });
}

/** Writes `piece()` every 50 ms until the socket closes (a slow client). */
function trickle(raw: Raw, piece: (k: number) => string): void {
  let k = 0;
  const timer = setInterval(() => {
    if (raw.socket.destroyed || !raw.socket.writable) clearInterval(timer);
    else raw.socket.write(piece(k++));
  }, 50);
  raw.closed.then(() => clearInterval(timer));
}

/** The promise, or a failure if the server has not answered in `ms` (a hang, not a measure). */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

function response(text: string): { status: string; body: Record<string, unknown> } {
  const [head, body] = text.split("\r\n\r\n");
  return { status: head!.split("\r\n")[0]!, body: JSON.parse(body!) as Record<string, unknown> };
}

const request = (host: string, length?: number): string =>
  `POST /read_file HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_TOKEN}\r\ncontent-type: application/json\r\n${length !== undefined ? `content-length: ${length}\r\n\r\n` : ""}`;

describe("serve --http and slow clients", () => {
  it("headers trickled one line at a time: 408 with a JSON body, the connection closed; same for a body trickled a byte at a time", async () => {
    const s = await new HttpServer(tempRepo({ "a.txt": "hello\n" }), ["--headers-timeout", "500", "--request-timeout", "1000"]).ready();
    const host = new URL(s.url).host;

    const headers = await open(s.url);
    headers.socket.write(request(host));
    trickle(headers, (k) => `x-slow-${k}: y\r\n`);
    const r1 = response(await within(headers.closed, 30_000, "trickled headers"));
    expect(r1.status).toBe("HTTP/1.1 408 Request Timeout");
    expect(r1.body).toEqual({
      success: false,
      code: "request_timeout",
      message: "the request did not arrive in time: headers within 500 ms, headers and body within 1000 ms",
    });

    const body = await open(s.url);
    body.socket.write(request(host, 1000));
    trickle(body, () => " ");
    const r2 = response(await within(body.closed, 30_000, "trickled body"));
    expect(r2.status).toBe("HTTP/1.1 408 Request Timeout");
    expect(r2.body["code"]).toBe("request_timeout");

    expect(s.stderr).toContain("a request did not arrive in time (headers within 500 ms, all of it within 1000 ms): 408, connection closed");
    expect((await s.stop()).code).toBe(0);
  });

  it("--max-connections 2: a third connection is closed as it arrives, the two open ones are served, then a new one is taken", async () => {
    const s = await new HttpServer(tempRepo({ "a.txt": "hello\n" }), ["--max-connections", "2", "--headers-timeout", "60000"]).ready();
    const host = new URL(s.url).host;
    const full = `${request(host, 16)}{"path":"a.txt"}`;
    // Two connections, each answered once (so the server holds both), then each starts a second request it does not finish.
    const held: Raw[] = [];
    for (let k = 0; k < 2; k++) {
      const raw = await open(s.url);
      raw.socket.write(full);
      await within(
        new Promise<void>((resolve) => {
          const check = (): void => {
            if (raw.received().includes('"contents":"hello\\n"')) resolve();
            else raw.socket.once("data", check);
          };
          check();
        }),
        30_000,
        "a first request",
      );
      raw.socket.write(request(host));
      held.push(raw);
    }

    const third = await open(s.url);
    expect(await within(third.closed, 30_000, "the third connection")).toBe("");
    expect(s.stderr).toMatch(/connection from 127\.0\.0\.1:\d+ closed: 2 connections are open \(--max-connections\)/);

    // The held connections finish their requests.
    const before = held[0]!.received().length;
    held[0]!.socket.write('content-length: 16\r\n\r\n{"path":"a.txt"}');
    await within(
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (held[0]!.received().slice(before).includes('"contents":"hello\\n"')) resolve();
          else held[0]!.socket.once("data", check);
        };
        check();
      }),
      30_000,
      "a held request",
    );
    // One closes: a new connection is served.
    held[1]!.socket.destroy();
    await held[1]!.closed;
    held[0]!.socket.destroy();
    await held[0]!.closed;
    // The server hears of the closes on its own schedule: a request that arrives before it has is refused as the third
    // connection was (one more refusal line on stderr); once it has, the request is served.
    const refusals = (): number => s.stderr.match(/closed: 2 connections are open \(--max-connections\)/g)?.length ?? 0;
    const refusedBefore = refusals();
    let served: Awaited<ReturnType<typeof s.post>> | undefined;
    let refused = 0;
    while (served === undefined) {
      try {
        served = await s.post("read_file", { path: "a.txt" });
      } catch (e) {
        refused++;
        expect(refused, `the request after both closes still fails: ${String(e)}`).toBeLessThan(100);
        await within(
          new Promise<void>((resolve) => {
            const wait = (): void => void (refusals() >= refusedBefore + refused ? resolve() : setTimeout(wait, 5));
            wait();
          }),
          30_000,
          "the refusal's line on stderr",
        );
      }
    }
    expect(served).toMatchObject({ status: 200, body: { success: true } });
    expect(refusals()).toBe(refusedBefore + refused);
    expect((await s.stop()).code).toBe(0);
  });

  it("refuses a request timeout shorter than the headers timeout (exit 2)", async () => {
    const s = new HttpServer(tempRepo({ "a.txt": "x\n" }), ["--headers-timeout", "5000", "--request-timeout", "1000"]);
    const exit = await s.wait();
    expect(exit.code).toBe(2);
    expect(s.stderr).toContain("--request-timeout 1000 is shorter than --headers-timeout 5000: the whole request includes its headers");
  });
});
