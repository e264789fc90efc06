import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHook } from "../../src/hook/run.js";
import { tempDir } from "../api/_helpers.js";

// Review rev104d F2: the hook's session root is, or holds, your home folder (Gemini CLI started
// in `~`, or in `/`), and the agent reads `~/.ssh/id_rsa`: the hook gave `~/.ssh/AGENTS.md` as a
// context file of the root's, `<instructions path=".ssh/AGENTS.md">`. The door held your private
// places (`YOUR_PRIVATE_PLACES`) only against your own files, read with no repository's reach;
// now a file whose real path lies in one of them is never read, whatever the root, trusted or not.

const MARK = "SSH-AGENTS-MARKER";

function setup() {
  const base = tempDir();
  const home = join(base, "home");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  mkdirSync(join(home, ".aws"), { recursive: true });
  writeFileSync(join(home, ".ssh", "AGENTS.md"), `# ${MARK}\n`);
  writeFileSync(join(home, ".ssh", "id_rsa"), "KEY\n");
  writeFileSync(join(home, ".aws", "AGENTS.md"), `# AWS-${MARK}\n`);
  writeFileSync(join(home, ".aws", "config"), "[default]\n");
  mkdirSync(join(home, "notes"));
  writeFileSync(join(home, "notes", "AGENTS.md"), "# NOTES-KEPT\n");
  writeFileSync(join(home, "notes", "todo.md"), "x\n");
  return { home, where: { env: { XDG_CACHE_HOME: join(base, "cache") }, home } };
}

const call = (session: string, cwd: string, path: string) =>
  JSON.stringify({
    session_id: session,
    cwd,
    hook_event_name: "AfterTool",
    tool_name: "read_file",
    tool_input: { absolute_path: path },
    tool_response: { llmContent: "x\n", returnDisplay: "" },
  });

describe("hostile: the hook's root is or holds your home folder", () => {
  it.each([
    ["the home folder", (home: string) => home],
    ["/", () => "/"],
  ])(
    "with the session root at %s, ~/.ssh/AGENTS.md and ~/.aws/AGENTS.md are never given",
    async (_name, root) => {
      const { home, where } = setup();
      for (const [i, file] of [".ssh/id_rsa", ".aws/config"].entries()) {
        const { reply } = await runHook(
          "gemini-cli",
          call(`s-${i}-${_name}`, root(home), join(home, file)),
          where,
        );
        expect(reply).not.toContain(MARK);
      }
    },
  );

  it("another folder of your home still brings its AGENTS.md", async () => {
    const { home, where } = setup();
    const { reply } = await runHook(
      "gemini-cli",
      call("s-notes", home, join(home, "notes", "todo.md")),
      where,
    );
    expect(reply).toContain("NOTES-KEPT");
  });
});
