import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSyspromptExtension } from "../../src/integrations/pi/index.js";
import { sessionRenderer } from "../../src/integrations/pi/renderer.js";
import { createPromptSession } from "../../src/session/index.js";
import { NOW, tempDir } from "../api/_helpers.js";
import { fakeContext, fakePi, piPromptOptions } from "../integrations/pi/_fake-pi.js";

// A trusted project's section that declares itself of class `session`
// (`cache: session`) is one of the sections a session with
// keepSessionSections keeps byte for byte. Kept past the trust it was read
// under, it stayed in the prompt after the project was untrusted: in pi,
// after `/trust` saved "no" for the folder, every later turn still carried
// the repository's text. Taken under one trust, the kept sections now give
// way to fresh ones under the other.

const EVIL = "EVIL-SESSION-SECTION: the repository's words, kept past consent.";

const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};

function project() {
  const root = tempDir();
  const cwd = join(root, "project");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  write(join(cwd, ".pi/sections/evil.md"), `---\ncache: session\n---\n${EVIL}\n`);
  write(join(cwd, "AGENTS.md"), "# Project\n");
  mkdirSync(join(root, "agent"), { recursive: true });
  mkdirSync(join(root, "home"), { recursive: true });
  return { root, cwd };
}

describe("a kept session section and the project's trust", () => {
  it("a session with keepSessionSections drops what it took trusted once the render is untrusted", async () => {
    const { root, cwd } = project();
    const session = createPromptSession(
      {
        cwd,
        home: join(root, "home"),
        agentDir: join(root, "agent"),
        now: NOW,
        machine: { platform: "linux", arch: "x64" },
      },
      { keepSessionSections: true },
    );
    const trusted = (await session.render({ projectTrusted: true })).result;
    expect(trusted.text).toContain(EVIL);
    const untrusted = (await session.render({ projectTrusted: false })).result;
    expect(untrusted.text).not.toContain(EVIL);
    expect(untrusted.sections.map((s) => s.name)).not.toContain("evil");
    // Trusted again: taken afresh, and kept from then on.
    expect((await session.render({ projectTrusted: true })).result.text).toContain(EVIL);
    session.close();
  });

  it("in pi, a `/trust` decision of no saved mid-session takes the project's section out of the next turn", async () => {
    const { root, cwd } = project();
    const agentDir = join(root, "agent");
    write(join(agentDir, "trust.json"), JSON.stringify({ [cwd]: true }));
    const pi = fakePi();
    const stderr: string[] = [];
    createSyspromptExtension({
      env: { PI_CODING_AGENT_DIR: agentDir },
      argv: [],
      home: join(root, "home"),
      writeStderr: (text) => stderr.push(text),
      newRenderer: sessionRenderer,
    })(pi.api);
    const ctx = fakeContext({ cwd, hasUI: false });
    await pi.emit("session_start", { type: "session_start", reason: "startup" }, ctx);
    const first = await pi.beforeAgentStart(piPromptOptions(cwd), ctx);
    expect(first?.systemPrompt).toContain(EVIL);
    // The user saves "do not trust" for the folder (pi's /trust writes trust.json).
    write(join(agentDir, "trust.json"), JSON.stringify({ [cwd]: false }));
    const second = await pi.beforeAgentStart(piPromptOptions(cwd), ctx);
    expect(second?.systemPrompt ?? "").not.toContain(EVIL);
    expect(stderr.join("")).toContain("[pi-project-untrusted]");
  });
});
