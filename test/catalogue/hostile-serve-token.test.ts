// Review rev43d L1: `serve` had no token. It listens on 127.0.0.1, and any other user of the
// machine who found the port could read /api/render (your AGENTS.md, your rules, your skills'
// text) by sending the loopback Host header, as curl does. Now every /api/ request needs the
// token of the address serve printed: without it, 403 and nothing of the prompt.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { get, rawRequest, type Served, startServe } from "../cli/_serve.js";

const MARKER = "SECRET-MARKER-USERAGENTS-5d1e";

function project(): string {
  const root = tempDir();
  for (const dir of ["project", "agent", "home"]) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, "agent/AGENTS.md"), `My own rules: ${MARKER}\n`);
  writeFileSync(join(root, "project/AGENTS.md"), "Use pnpm.\n");
  return root;
}

const running: Served[] = [];
afterEach(async () => {
  for (const served of running.splice(0)) await served.stop();
});

/** The token with its first character changed: as long, one byte wrong. */
const wrong = (token: string) => `${token[0] === "A" ? "B" : "A"}${token.slice(1)}`;

describe("hostile-serve-token: another local user without the token reads no prompt text", () => {
  it("every /api/ path without the token, or with a wrong one, is 403 without the prompt", async () => {
    const served = await startServe(project());
    running.push(served);
    const { port, token } = served;
    const host = `Host: 127.0.0.1:${port}`;
    const body = '{"tools":["read"],"model":"m","tree":false,"trusted":false}';
    const requests: [string, string, string?][] = [
      ["no token", `GET /api/render HTTP/1.1\r\n${host}`],
      ["no token, HTTP/1.0", `GET /api/render HTTP/1.0\r\n${host}`],
      ["no token, localhost", `GET /api/render HTTP/1.1\r\nHost: localhost:${port}`],
      ["wrong token", `GET /api/render?token=${wrong(token)} HTTP/1.1\r\n${host}`],
      ["wrong header", `GET /api/render HTTP/1.1\r\n${host}\r\nX-Sysprompt-Token: ${wrong(token)}`],
      ["token's start", `GET /api/render?token=${token.slice(0, 20)} HTTP/1.1\r\n${host}`],
      ["token and more", `GET /api/render?token=${token}x HTTP/1.1\r\n${host}`],
      ["empty token", `GET /api/render?token= HTTP/1.1\r\n${host}`],
      ["token as a path", `GET /api/render/${token} HTTP/1.1\r\n${host}`],
      [
        "token elsewhere",
        `GET /api/render?t=${token} HTTP/1.1\r\n${host}\r\nCookie: token=${token}`,
      ],
      ["events", `GET /api/events HTTP/1.1\r\n${host}`],
      ["events, wrong token", `GET /api/events?token=${wrong(token)} HTTP/1.1\r\n${host}`],
      [
        "switch",
        `POST /api/options HTTP/1.1\r\n${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}`,
        body,
      ],
    ];
    for (const [what, head, sent] of requests) {
      const res = await rawRequest(port, head, sent);
      expect({ what, status: res.status, marker: res.body.includes(MARKER) }).toEqual({
        what,
        status: 403,
        marker: false,
      });
      expect(res.body).toMatch(/forbidden: open the address sysprompt serve printed/);
    }
    // The page itself holds nothing of the prompt, with or without the token.
    for (const path of ["/", "/app.js", "/app.css"]) {
      const res = await rawRequest(port, `GET ${path} HTTP/1.1\r\n${host}`);
      expect({ path, status: res.status, marker: res.body.includes(MARKER) }).toEqual({
        path,
        status: 200,
        marker: false,
      });
    }
    // With the token (its header, or ?token= as the event stream sends it) the prompt is there,
    // and the refused switch above changed nothing.
    const view = await get(port, "/api/render");
    expect([view.status, view.body.includes(MARKER), JSON.parse(view.body).count]).toEqual([
      200,
      true,
      0,
    ]);
    const query = await rawRequest(port, `GET /api/render?token=${token} HTTP/1.1\r\n${host}`);
    expect([query.status, query.body.includes(MARKER)]).toEqual([200, true]);
    // The address printed carries it: 32 random bytes, base64url.
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
  });

  it("a server started again has a new token; the old one opens nothing", async () => {
    const first = await startServe(project());
    const old = first.token;
    await first.stop();
    const second = await startServe(project());
    running.push(second);
    expect(second.token).not.toBe(old);
    const res = await rawRequest(
      second.port,
      `GET /api/render?token=${old} HTTP/1.1\r\nHost: 127.0.0.1:${second.port}`,
    );
    expect([res.status, res.body.includes(MARKER)]).toEqual([403, false]);
  });
});
