import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUILTIN, tempDir } from "../api/_helpers.js";
import { cli, usageHint } from "./_run.js";
import {
  EventFeed,
  get,
  postOptions,
  rawRequest,
  type Served,
  startServe,
  tokenOf,
} from "./_serve.js";

const SECRET = "canary-8c1f7a: this text must never be served";

/** A project with a section of its own, an AGENTS.md, and a secret file beside it. */
function project(): string {
  const root = tempDir();
  for (const dir of ["project/.pi/sections", "agent", "home"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "project/AGENTS.md"), "Use pnpm.\n");
  writeFileSync(
    join(root, "project/.pi/sections/notes.md"),
    "---\norder: 25\n---\nKeep it short.\n",
  );
  writeFileSync(join(root, "secret.txt"), SECRET);
  writeFileSync(join(root, "project/secret.txt"), SECRET);
  return root;
}

const running: Served[] = [];
const feeds: EventFeed[] = [];

afterEach(async () => {
  for (const feed of feeds.splice(0)) feed.stop();
  for (const served of running.splice(0)) await served.stop();
});

async function serve(root: string, extra: string[] = []): Promise<Served> {
  const served = await startServe(root, extra);
  running.push(served);
  return served;
}

function feed(port: number): EventFeed {
  const events = new EventFeed(port);
  feeds.push(events);
  return events;
}

describe("sysprompt serve: what it listens on", () => {
  it.each(["0.0.0.0", "example.com", "192.168.1.10", "::1"])(
    "refuses --host %s (exit 2)",
    async (host) => {
      const root = project();
      const out = await cli(root, ["serve", "--host", host]);
      expect(out).toEqual({
        code: 2,
        stdout: "",
        stderr: `sysprompt: the inspector listens on 127.0.0.1 only (it shows your files to whoever can reach it); got host "${host}"\n${usageHint("serve")}`,
      });
    },
  );

  it.each(["70000", "-1", "http", "1e3"])("refuses --port %s (exit 2)", async (port) => {
    const out = await cli(project(), ["serve", "--port", port]);
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      `sysprompt: --port expects a number from 0 to 65535, got "${port}"\n${usageHint("serve")}`,
    );
  });

  it("a port in use is exit 2", async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, "127.0.0.1", done));
    const address = blocker.address();
    const port = typeof address === "object" && address ? address.port : 0;
    try {
      const out = await cli(project(), ["serve", "--port", String(port)]);
      expect(out).toEqual({
        code: 2,
        stdout: "",
        stderr: `sysprompt: cannot listen on 127.0.0.1:${port}: it is in use\n${usageHint("serve")}`,
      });
    } finally {
      blocker.close();
    }
  });

  it("listens on 127.0.0.1 (also for --host localhost), prints the address, and stops on the signal with exit 0", async () => {
    const served = await startServe(project(), ["--host", "localhost"]);
    expect(served.stdout()).toBe(`sysprompt inspector: ${served.url} (Ctrl-C to stop)\n`);
    expect((await get(served.port, "/")).status).toBe(200);
    expect(await served.stop()).toEqual({
      code: 0,
      stdout: `sysprompt inspector: ${served.url} (Ctrl-C to stop)\nstopped\n`,
      stderr: "",
    });
  });

  it("answers only to Host 127.0.0.1:PORT or localhost:PORT (DNS rebinding)", async () => {
    const { port } = await serve(project());
    // HTTP/1.0 may leave the Host header out (1.1 may not: Node answers 400 itself).
    const withHost = (host: string | null) =>
      rawRequest(
        port,
        `GET /api/render?token=${tokenOf(port)} HTTP/1.0${host === null ? "" : `\r\nHost: ${host}`}`,
      );
    expect((await withHost(`127.0.0.1:${port}`)).status).toBe(200);
    expect((await withHost(`localhost:${port}`)).status).toBe(200);
    for (const host of [`evil.example:${port}`, "127.0.0.1", `127.0.0.1:${port + 1}`, "", null]) {
      const res = await withHost(host);
      expect({ host, status: res.status, body: res.body }).toEqual({
        host,
        status: 403,
        body: "forbidden: unexpected Host header\n",
      });
    }
  });

  it("refuses another page's Origin on every path: a website cannot take the 16 event streams", async () => {
    const { port } = await serve(project());
    // A browser sends Origin with a cross-origin EventSource or fetch, and the loopback Host with it.
    const from = (origin: string, path: string) =>
      rawRequest(
        port,
        `GET ${path}?token=${tokenOf(port)} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${origin}\r\nConnection: close`,
      );
    for (const path of ["/api/events", "/api/render", "/"]) {
      const res = await from("http://evil.example", path);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 403,
        body: "forbidden: cross-origin request\n",
      });
    }
    expect((await from("null", "/api/render")).status).toBe(403);
    // The page's own origin is answered.
    expect((await from(`http://127.0.0.1:${port}`, "/api/render")).status).toBe(200);
  });
});

describe("sysprompt serve: what it serves", () => {
  it("serves its page, its assets and its JSON, with a strict content policy", async () => {
    const { port } = await serve(project());
    const page = await get(port, "/");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(page.body).toContain('<script src="/app.js" defer></script>');
    expect((await get(port, "/app.js")).headers["content-type"]).toBe(
      "text/javascript; charset=utf-8",
    );
    expect((await get(port, "/app.css")).headers["content-type"]).toBe("text/css; charset=utf-8");
    const view = JSON.parse((await get(port, "/api/render")).body);
    expect(view.sections.map((s: { name: string }) => s.name)).toEqual([
      "preamble",
      "tools",
      "notes",
      "rules",
      "project_context",
      "cwd",
      "environment",
      "date",
    ]);
  });

  it("gives 404 for every other path, and never a file named by the request", async () => {
    const root = project();
    const { port } = await serve(root);
    const paths = [
      "/../../etc/passwd",
      "/../secret.txt",
      "/secret.txt",
      "/%2e%2e/%2e%2e/etc/passwd",
      "/%2e%2e/",
      "/%2E%2E%2Fsecret.txt",
      "/..%2f..%2fetc%2fpasswd",
      "//etc/passwd",
      `/${root}/secret.txt`,
      `${root}/secret.txt`,
      "/AGENTS.md",
      "/.pi/sections/notes.md",
      "/index.html",
      "/app.js/../../secret.txt",
      "/app.js%00.html",
      "/page/app.js",
      "/src/serve/page/index.html",
      "/api",
      "/api/render/../../secret.txt",
      `http://127.0.0.1:${port}/etc/passwd`,
      `http://127.0.0.1:${port}/../secret.txt`,
      "/favicon.ico",
      "/__proto__",
      "*",
    ];
    for (const path of paths) {
      const res = await get(port, path);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 404,
        body: "not found\n",
      });
    }
  });

  it("answers other methods with 405", async () => {
    const { port } = await serve(project());
    for (const [method, path, allow] of [
      ["POST", "/", "GET, HEAD"],
      ["PUT", "/api/render", "GET"],
      ["DELETE", "/api/events", "GET"],
      ["GET", "/api/options", "POST"],
    ] as const) {
      const res = await rawRequest(
        port,
        `${method} ${path}?token=${tokenOf(port)} HTTP/1.1\r\nHost: 127.0.0.1:${port}`,
      );
      expect({ method, path, status: res.status, allow: res.headers.allow }).toEqual({
        method,
        path,
        status: 405,
        allow,
      });
    }
  });
});

describe("sysprompt serve: live", () => {
  it("pushes a change on disk as an event, with the changed section's word diff", async () => {
    const root = project();
    const { port } = await serve(root);
    const events = feed(port);
    const first = await events.next();
    expect(first.cause).toEqual({ kind: "start", files: [] });
    expect(first.sections.every((s) => s.status === "same")).toBe(true);
    // Files a render does not read change nothing; the section file does.
    writeFileSync(join(root, "project/notes.txt"), "not part of the prompt\n");
    mkdirSync(join(root, "project/src"));
    writeFileSync(join(root, "project/src/index.ts"), "export {};\n");
    const file = join(root, "project/.pi/sections/notes.md");
    writeFileSync(file, "---\norder: 25\n---\nKeep it very short.\n");
    const next = await events.next((v) => v.cause.kind === "files");
    expect(next.cause).toEqual({ kind: "files", files: [file] });
    expect(next.count).toBe(first.count + 1);
    expect(next.sections.filter((s) => s.status !== "same")).toEqual([
      {
        name: "notes",
        layer: "project",
        path: file,
        volatile: false,
        cache: "stable",
        tokens: 11,
        bytes: 36,
        text: "<notes>\nKeep it very short.\n</notes>",
        status: "changed",
        diff: [
          ["=", "<notes>\nKeep it "],
          ["+", "very "],
          ["=", "short.\n</notes>"],
        ],
      },
    ]);
    expect(next.removed).toEqual([]);
  });

  it("notices a project layer that did not exist when it started", async () => {
    const root = project();
    rmSync(join(root, "project/.pi"), { recursive: true });
    const { port } = await serve(root);
    const events = feed(port);
    const first = await events.next();
    expect(first.sections.map((s) => s.name)).not.toContain("notes");
    mkdirSync(join(root, "project/.pi/sections"), { recursive: true });
    writeFileSync(join(root, "project/.pi/sections/later.md"), "Added later.\n");
    const next = await events.next((v) => v.sections.some((s) => s.name === "later"));
    expect(next.sections.find((s) => s.name === "later")).toMatchObject({
      layer: "project",
      status: "added",
      text: "<later>\nAdded later.\n</later>",
    });
  });

  it("a template broken mid-edit shows its diagnostic and the fallback; fixing it recovers", async () => {
    const root = project();
    const file = join(root, "project/.pi/sections/rules.md");
    writeFileSync(file, "Project rules: {{> base}}\n");
    const { port } = await serve(root);
    const events = feed(port);
    const good = await events.next();
    expect(good.sections.find((s) => s.name === "rules")?.layer).toBe("project");

    writeFileSync(file, "Project rules:\n{{#if tools}}\n{{> base}}\n");
    const broken = await events.next((v) => v.cause.kind === "files");
    const rules = broken.sections.find((s) => s.name === "rules");
    expect(rules?.layer).toBe("builtin");
    expect(rules?.failed).toEqual({ layer: "project", path: file });
    expect(broken.diagnostics.filter((d) => d.level === "error")).toEqual([
      {
        level: "error",
        code: "template",
        path: file,
        line: 2,
        column: 1,
        message: expect.stringMatching(/the builtin version is used instead$/),
      },
    ]);

    writeFileSync(file, "Project rules, fixed: {{> base}}\n");
    const fixed = await events.next((v) => v.count > broken.count);
    const back = fixed.sections.find((s) => s.name === "rules");
    expect(back?.layer).toBe("project");
    expect(back?.failed).toBeUndefined();
    expect(back?.text.startsWith("<rules>\nProject rules, fixed: Rules:")).toBe(true);
    expect(fixed.diagnostics.filter((d) => d.level === "error")).toEqual([]);
  });

  it("switches tools, model, tree and trust from the page, and pushes the new render", async () => {
    const root = project();
    const { port } = await serve(root);
    const events = feed(port);
    const first = await events.next();
    expect(first.switches).toEqual({
      tools: ["read", "bash", "edit", "write"],
      model: null,
      tree: false,
      trusted: true,
    });
    expect(first.tools).toEqual([
      "read",
      "bash",
      "edit",
      "write",
      "grep",
      "find",
      "ls",
      "powershell",
    ]);
    const switches = { tools: ["read", "grep"], model: "gpt-5-mini", tree: true, trusted: false };
    const res = await postOptions(port, JSON.stringify(switches));
    expect(res.status).toBe(200);
    const view = JSON.parse(res.body);
    expect(view.switches).toEqual(switches);
    expect(view.cause).toEqual({ kind: "options", files: [] });
    const names = view.sections.map((s: { name: string }) => s.name);
    // Untrusted: the project's own section is gone; the tree is there.
    expect(names).toEqual([
      "preamble",
      "tools",
      "rules",
      "project_context",
      "cwd",
      "environment",
      "workspace_tree",
      "date",
    ]);
    expect(view.removed).toEqual(["notes"]);
    expect(view.sections.find((s: { name: string }) => s.name === "tools").text).toBe(
      [
        "<tools>",
        "Tools you can call:",
        "- read: Read a file's contents; long files can be read in parts.",
        "- grep: Search file contents for a pattern, honouring .gitignore.",
        "</tools>",
      ].join("\n"),
    );
    expect(view.data.model).toBe("gpt-5-mini");
    // The model picks the builtin variant for small models.
    expect(view.sections.find((s: { name: string }) => s.name === "rules").path).toBe(
      join(BUILTIN, "sections/rules@small.md"),
    );
    expect(view.diagnostics.map((d: { code: string }) => d.code)).toContain("project-untrusted");
    // Every watcher of the page sees it too.
    expect((await events.next((v) => v.count === view.count)).switches).toEqual(switches);
    expect(JSON.parse((await get(port, "/api/render")).body).count).toBe(view.count);
  });

  it("takes only the four switches, validated; nothing else comes from a request", async () => {
    const { port } = await serve(project());
    const ok = { tools: ["read"], model: null, tree: false, trusted: true };
    const cases: [string, Record<string, string> | undefined, number, string][] = [
      [JSON.stringify({ ...ok, cwd: "/etc" }), undefined, 400, "unknown field(s): cwd"],
      [JSON.stringify({ ...ok, agentDir: "/" }), undefined, 400, "unknown field(s): agentDir"],
      [
        JSON.stringify({ tools: ["read"] }),
        undefined,
        400,
        "missing field(s): model, tree, trusted",
      ],
      [
        JSON.stringify({ ...ok, tools: ["../x"] }),
        undefined,
        400,
        "tools: a name is 1-64 letters, digits, '_', '.', ':' or '-'",
      ],
      [
        JSON.stringify({ ...ok, tools: "read" }),
        undefined,
        400,
        "tools: expected an array of at most 64 tool names",
      ],
      [
        JSON.stringify({ ...ok, model: "" }),
        undefined,
        400,
        "model: expected null or a name of 1-200 characters",
      ],
      [
        JSON.stringify({ ...ok, model: "a\nb" }),
        undefined,
        400,
        "model: control characters are not allowed",
      ],
      [JSON.stringify({ ...ok, tree: "yes" }), undefined, 400, "tree: expected true or false"],
      [
        JSON.stringify([ok]),
        undefined,
        400,
        "expected a JSON object with tools, model, tree and trusted",
      ],
      ["{not json", undefined, 400, "the body is not valid JSON"],
      [
        JSON.stringify(ok),
        { "Content-Type": "text/plain" },
        415,
        "send the options as application/json",
      ],
      [
        JSON.stringify(ok),
        { "Content-Type": "application/json", Origin: "http://evil.example" },
        403,
        "forbidden: cross-origin request",
      ],
      [
        JSON.stringify({ ...ok, model: "x".repeat(9000) }),
        undefined,
        413,
        "the body is larger than 8192 bytes",
      ],
    ];
    for (const [body, headers, status, error] of cases) {
      const res = await postOptions(port, body, headers);
      expect({ body: body.slice(0, 80), status: res.status, json: JSON.parse(res.body) }).toEqual({
        body: body.slice(0, 80),
        status,
        json: { error },
      });
    }
    // Nothing above changed what is shown.
    expect(JSON.parse((await get(port, "/api/render")).body).count).toBe(0);
  });
});
