import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectFolderName, quotePath } from "../../src/agents/export.js";
import { run } from "../../src/cli/main.js";
import { NOW, tempDir } from "../api/_helpers.js";
import { cli, pinMachine, usageHint } from "./_run.js";

pinMachine();

/** An hour before now: a rewrite within the same millisecond still shows in the mtime. */
const OLD = new Date(Date.now() - 3_600_000);

function project(): string {
  const root = tempDir();
  mkdirSync(join(root, "project"), { recursive: true });
  writeFileSync(join(root, "project/AGENTS.md"), "Run npm test.\n");
  return root;
}

/** The first line sysprompt says about the file (diagnostics come before it). */
const said = (stderr: string) => stderr.split("\n").find((l) => l.startsWith("sysprompt: "));

/** The default export file of `agent` for the project at `root/<folder>` (no repository: the folder is the project). */
const exported = (root: string, agent: string, file: string, folder = "project") =>
  join(
    root,
    "home/.cache/sysprompt/export",
    agent,
    projectFolderName(realpathSync(join(root, folder))),
    file,
  );

function pin(path: string) {
  utimesSync(path, OLD, OLD);
  const s = statSync(path);
  return { ino: s.ino, mtimeMs: s.mtimeMs };
}

describe("sysprompt export", () => {
  it("writes the prompt to the agent's default file and prints the one line to add", async () => {
    const root = project();
    const path = exported(root, "gemini-cli", "system.md");
    const first = await cli(root, ["export", "--agent", "gemini-cli"]);
    expect(first).toEqual({
      code: 0,
      stdout: `GEMINI_SYSTEM_MD=${path}\n`,
      stderr: `sysprompt: wrote ${path}\nsysprompt: for gemini-cli, add this line to the environment of gemini when you start it in this project (a wrapper script, or this project's .gemini/.env; in your shell's profile it would be every project's); headless (gemini -p) also needs the folder trusted (run gemini there once and trust it, or list it in ~/.gemini/trustedFolders.json):\n`,
    });
    const rendered = await cli(root, ["render", "--agent", "gemini-cli"]);
    expect(readFileSync(path, "utf8")).toBe(rendered.stdout);
    expect(rendered.stdout.startsWith("You are Gemini CLI. ")).toBe(true);
  });

  it("rewrites the file only when its bytes change (mtime and inode kept otherwise)", async () => {
    const root = project();
    const path = exported(root, "codex", "instructions.md");
    await cli(root, ["export", "--agent", "codex"]);
    const before = pin(path);
    const again = await cli(root, ["export", "--agent", "codex"]);
    expect(said(again.stderr)).toBe(`sysprompt: unchanged: ${path}`);
    expect(pin(path)).toEqual(before);
    // Codex loads AGENTS.md itself, so a change there does not change the export…
    writeFileSync(join(root, "project/AGENTS.md"), "Run npm test, then lint.\n");
    expect((await cli(root, ["export", "--agent", "codex"])).stderr).toContain("unchanged:");
    expect(pin(path)).toEqual(before);
    // …while a CLAUDE.md in a folder without AGENTS.md does (a repository: one project, one file).
    mkdirSync(join(root, "project/.git"));
    mkdirSync(join(root, "project/app"));
    writeFileSync(join(root, "project/app/CLAUDE.md"), "App notes.\n");
    const changed = await cli(root, ["export", "--agent", "codex", "--cwd", "app"]);
    expect(said(changed.stderr)).toBe(`sysprompt: wrote ${path}`);
    expect(readFileSync(path, "utf8")).toContain("App notes.");
    expect(statSync(path).mtimeMs).not.toBe(before.mtimeMs);
  });

  it("--out writes where it is told; each agent's line quotes the path for its syntax", async () => {
    const root = project();
    const dir = join(root, "out dir");
    mkdirSync(dir);
    const lines = {
      codex: `codex -c model_instructions_file='${dir}/it'\\''s "x".md'`,
      "claude-code": `claude --system-prompt-file '${dir}/it'\\''s "x".md'`,
    };
    for (const [agent, line] of Object.entries(lines)) {
      const out = await cli(root, ["export", "--agent", agent, "--out", `../out dir/it's "x".md`]);
      expect(out.stdout).toBe(`${line}\n`);
      expect(out.code).toBe(0);
    }
    // Gemini CLI's line goes in a shell or in .gemini/.env (dotenv, which keeps '\'' as written):
    // a ' in double quotes, which both read as written, and with a " no line at all (rev82d F1).
    const gemini = await cli(root, [
      "export",
      "--agent",
      "gemini-cli",
      "--out",
      `../out dir/it's x.md`,
    ]);
    expect(gemini.stdout).toBe(`GEMINI_SYSTEM_MD="${dir}/it's x.md"\n`);
    const both = await cli(root, [
      "export",
      "--agent",
      "gemini-cli",
      "--out",
      `../out dir/it's "x".md`,
    ]);
    expect({ code: both.code, stdout: both.stdout }).toEqual({ code: 2, stdout: "" });
    // opencode takes {file:PATH} from the raw JSON text: a JSON escape there names another file.
    const plain = await cli(root, ["export", "--agent", "opencode", "--out", `../out dir/it's.md`]);
    expect(plain.stdout).toBe(`"agent": { "build": { "prompt": "{file:${dir}/it's.md}" } }\n`);
    const quoted = await cli(root, ["export", "--agent", "opencode", "--out", `../out dir/"x".md`]);
    expect({ code: quoted.code, stdout: quoted.stdout }).toEqual({ code: 2, stdout: "" });
    expect(existsSync(join(root, "home/.cache"))).toBe(false);
  });

  it("follows $XDG_CACHE_HOME when it is absolute", async () => {
    const root = project();
    const cache = join(root, "xdg");
    mkdirSync(join(root, "agent"));
    let stdout = "";
    const code = await run(
      ["export", "--agent", "codex", "--now", NOW, "--agent-dir", join(root, "agent")],
      {
        stdout: (t) => {
          stdout += t;
        },
        stderr: () => {},
        cwd: join(root, "project"),
        env: { XDG_CACHE_HOME: cache },
        home: join(root, "home"),
        machine: { platform: "linux", arch: "x64" },
      },
    );
    expect(code).toBe(0);
    expect(stdout).toBe(
      `codex -c model_instructions_file=${join(cache, "sysprompt/export/codex", projectFolderName(realpathSync(join(root, "project"))), "instructions.md")}\n`,
    );
  });

  it("never writes through a link: --out on a symbolic link is exit 2, its target untouched", async () => {
    const root = project();
    writeFileSync(join(root, "victim"), "keep me\n");
    symlinkSync(join(root, "victim"), join(root, "project/prompt.md"));
    const out = await cli(root, ["export", "--agent", "codex", "--out", "prompt.md"]);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe("");
    expect(out.stderr).toMatch(/^sysprompt: export: .*prompt\.md: /);
    expect(readFileSync(join(root, "victim"), "utf8")).toBe("keep me\n");
  });

  it("--out inside the working folder: no folder on the way may be a link", async () => {
    const root = project();
    mkdirSync(join(root, "elsewhere"));
    symlinkSync(join(root, "elsewhere"), join(root, "project/docs"));
    mkdirSync(join(root, "elsewhere/deep"));
    const out = await cli(root, ["export", "--agent", "codex", "--out", "docs/deep/prompt.md"]);
    expect(out.code).toBe(2);
    expect(existsSync(join(root, "elsewhere/deep/prompt.md"))).toBe(false);
  });

  it("a link in the cache folder is refused too", async () => {
    const root = project();
    mkdirSync(join(root, "home/.cache/sysprompt"), { recursive: true });
    mkdirSync(join(root, "elsewhere"));
    symlinkSync(join(root, "elsewhere"), join(root, "home/.cache/sysprompt/export"));
    const out = await cli(root, ["export", "--agent", "codex"]);
    expect(out.code).toBe(2);
    expect(existsSync(join(root, "elsewhere/codex"))).toBe(false);
  });

  it("a path with a control character is exit 2: the setting must stay one line", async () => {
    const root = project();
    const out = await cli(root, ["export", "--agent", "codex", "--out", "a\nb.md"]);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe("");
    expect(existsSync(join(root, "project/a\nb.md"))).toBe(false);
  });

  it("pi has nothing to export, and export needs --agent: exit 2", async () => {
    const root = project();
    const pi = await cli(root, ["export", "--agent", "pi"]);
    expect(pi.code).toBe(2);
    expect(pi.stderr).toBe(
      `sysprompt: pi renders sysprompt's prompt itself (install sysprompt as a pi package): there is nothing to export; pass --agent claude-code, codex, gemini-cli or opencode\n${usageHint("export")}`,
    );
    const none = await cli(root, ["export"]);
    expect(none).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: export needs --agent NAME: the agent whose file to write (claude-code, codex, gemini-cli, opencode)\n${usageHint("export")}`,
    });
  });

  it("takes the agent from sysprompt.yaml's agent: when no --agent is given; --agent still wins", async () => {
    const root = project();
    mkdirSync(join(root, "agent"), { recursive: true });
    writeFileSync(join(root, "agent/sysprompt.yaml"), "agent: codex\n");
    const path = exported(root, "codex", "instructions.md");
    const out = await cli(root, ["export"]);
    expect([out.code, out.stdout, said(out.stderr)]).toEqual([
      0,
      `codex -c model_instructions_file=${path}\n`,
      `sysprompt: wrote ${path}`,
    ]);
    expect(readFileSync(path, "utf8")).toBe(
      (await cli(root, ["render", "--agent", "codex"])).stdout,
    );
    const flag = await cli(root, ["export", "--agent", "gemini-cli"]);
    expect([flag.code, said(flag.stderr)]).toEqual([
      0,
      `sysprompt: wrote ${exported(root, "gemini-cli", "system.md")}`,
    ]);
    // --no-config: the file is not read, so no agent is named.
    expect((await cli(root, ["export", "--no-config"])).code).toBe(2);
  });

  it("without an agent, a sysprompt.yaml's own problems come before the usage error: they may be why none is named", async () => {
    const root = project();
    mkdirSync(join(root, "project/.pi"), { recursive: true });
    const file = join(root, "project/.pi/sysprompt.yaml");
    writeFileSync(file, "agnet: codex\n");
    const out = await cli(root, ["export"]);
    expect(out).toEqual({
      code: 2,
      stdout: "",
      stderr: `warning ${file}:1 [config-unknown-key] unknown key "agnet", ignored; did you mean "agent"?\nsysprompt: export needs --agent NAME: the agent whose file to write (claude-code, codex, gemini-cli, opencode)\n${usageHint("export")}`,
    });
    const watch = await cli(root, ["watch", "--export"]);
    expect([watch.code, watch.stderr]).toEqual([
      2,
      out.stderr.replace(usageHint("export"), usageHint("watch")),
    ]);
  });

  it("a project file's agent: that names no preset is that file's problem (path and line, exit 1), not a usage error", async () => {
    const root = project();
    mkdirSync(join(root, "project/.pi"), { recursive: true });
    const file = join(root, "project/.pi/sysprompt.yaml");
    writeFileSync(file, "tree: false\nagent: nope\n");
    const out = await cli(root, ["export"]);
    expect(out).toEqual({
      code: 1,
      stdout: "",
      stderr: `error ${file}:2 [config-bad-value] agent: no preset named "nope". The presets are: claude-code, codex, gemini-cli, opencode, pi (a new one is a file agents/<name>.yaml in the agent dir or the project's .pi/); the key is ignored\nsysprompt: nothing exported: the agent: at ${file}:2 names no preset (see above); fix it there, or pass --agent NAME\n`,
    });
    expect(existsSync(join(root, "home/.cache/sysprompt/export"))).toBe(false);
    // explain says the agent in use is the default (the file's agent: was ignored, its tree: not).
    const explained = JSON.parse((await cli(root, ["explain", "--json"])).stdout) as {
      settings: { key: string; source: string }[];
    };
    expect(explained.settings.filter((s) => s.source === "config").map((s) => s.key)).toEqual([
      "tree",
    ]);
    // --agent beats the file; a bad --agent is still the command line's mistake.
    expect((await cli(root, ["export", "--agent", "codex"])).code).toBe(0);
    expect(await cli(root, ["export", "--agent", "nope"])).toMatchObject({ code: 2 });
  });
});

describe("quotePath", () => {
  it("leaves a plain path alone and quotes the rest for each syntax", () => {
    expect(quotePath("/a/b-c_d.md", "shell")).toBe("/a/b-c_d.md");
    expect(quotePath("/a b/$x`y`.md", "shell")).toBe("'/a b/$x`y`.md'");
    expect(quotePath('/a\\b"\n\u007f', "toml")).toBe('/a\\\\b\\"\\n\\u007f');
    expect(quotePath('/a\\b"', "json")).toBe('/a\\\\b\\"');
  });
});
