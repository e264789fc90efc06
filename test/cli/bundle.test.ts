import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { NOW, tempDir } from "../api/_helpers.js";

// The published `sysprompt` command is dist/src/cli/sysprompt.cjs running the
// one-file bundle made by scripts/bundle-cli.mjs. The suite tests the CLI
// through src/; these tests hold the bundle to the same behaviour as the
// unbundled entry (dist/src/cli/bin.js) it is made from.

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const CLI_DIR = join(REPO, "dist", "src", "cli");
const LOADER = join(CLI_DIR, "sysprompt.cjs");
const UNBUNDLED = join(CLI_DIR, "bin.js");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runWith(entry: string, args: string[], cwd: string, home: string, input = ""): Run {
  const out = spawnSync(process.execPath, [entry, ...args], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      SYSPROMPT_AGENT_DIR: join(home, "agent"),
      XDG_CACHE_HOME: join(home, "cache"),
    },
    encoding: "utf8",
    input,
  });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** Step timings differ from run to run; everything else must not. */
function withoutTimings(json: string): unknown {
  const result = JSON.parse(json) as { steps: { ms: number }[] };
  return { ...result, steps: result.steps.map((s) => ({ ...s, ms: 0 })) };
}

function project(): { dir: string; home: string } {
  const home = tempDir();
  const dir = join(home, "project");
  mkdirSync(join(dir, ".pi", "sections"), { recursive: true });
  mkdirSync(join(home, "agent"));
  writeFileSync(join(dir, "AGENTS.md"), "# Project\n\nRun `npm test` before you commit.\n");
  return { dir, home };
}

describe("the CLI bundle", () => {
  beforeAll(() => {
    // Built by `npm run build` (npm ci runs it); build it if this checkout has none.
    try {
      statSync(join(CLI_DIR, "bundle.cjs"));
    } catch {
      execFileSync("npm", ["run", "build"], { cwd: REPO, stdio: "ignore" });
    }
  }, 120_000);

  it("is what package.json names as the sysprompt command", () => {
    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
      bin: Record<string, string>;
    };
    expect(pkg.bin).toEqual({ sysprompt: "dist/src/cli/sysprompt.cjs" });
  });

  it("renders what the unbundled CLI renders, diagnostics included", () => {
    const { dir, home } = project();
    writeFileSync(join(dir, ".pi", "sections", "team.md"), "---\norder: 5\n---\nTeam {{#bad}}\n");
    const args = ["render", "--json", "--now", NOW, "--tools", "read,bash"];
    const bundled = runWith(LOADER, args, dir, home);
    const unbundled = runWith(UNBUNDLED, args, dir, home);
    expect(bundled.code).toBe(0);
    expect(withoutTimings(bundled.stdout)).toEqual(withoutTimings(unbundled.stdout));
    expect(bundled.stderr).toBe(unbundled.stderr);
  });

  it("reads markup with the HTML tree builder it loads on first use, as the unbundled CLI does", () => {
    const { dir, home } = project();
    // An AGENTS.md that leaves a hiding element open: its closer needs parse5, which the
    // bundle loads only when a text holds markup.
    writeFileSync(join(dir, "AGENTS.md"), "# Project\n\n<details>\nfolded notes\n");
    const args = ["render", "--json", "--now", NOW, "--tools", "read,bash"];
    const bundled = runWith(LOADER, args, dir, home);
    expect(bundled.code).toBe(0);
    expect(withoutTimings(bundled.stdout)).toEqual(
      withoutTimings(runWith(UNBUNDLED, args, dir, home).stdout),
    );
    const result = JSON.parse(bundled.stdout) as { text: string };
    expect(result.text).toMatch(/folded notes\n+<!----><\/details>/);
  });

  it("gives the same reports, output and exit codes for check, sections, usage errors and --version", () => {
    const { dir, home } = project();
    writeFileSync(join(dir, ".pi", "sections", "team.md"), "---\norder: 5\n---\n{{shout x}}\n");
    for (const args of [
      ["check"],
      ["sections", "--now", NOW],
      ["render", "--no-such-flag"],
      ["render", "--section", "nope", "--now", NOW],
      ["--version"],
    ]) {
      expect({ args, ...runWith(LOADER, args, dir, home) }).toEqual({
        args,
        ...runWith(UNBUNDLED, args, dir, home),
      });
    }
  }, 30_000); // a dozen CLI processes, one after another: 2.4 s idle, over 5 s on a loaded CI machine

  it("starts from a code cache that this Node accepts", () => {
    const loader = createRequire(import.meta.url)(LOADER) as {
      compileBundle(useCache?: boolean, bundle?: string): { cachedDataRejected?: boolean };
      HOOK_BUNDLE: string;
    };
    expect(loader.compileBundle().cachedDataRejected).toBe(false);
    expect(loader.compileBundle(true, loader.HOOK_BUNDLE).cachedDataRejected).toBe(false);
  });

  it("runs `hook AGENT` and `hook AGENT --untrusted` from the hook's bundle, nothing else", () => {
    const loader = createRequire(import.meta.url)(LOADER) as {
      chosenBundle(argv: readonly string[]): string;
      HOOK_BUNDLE: string;
    };
    const chosen = (...args: string[]) => loader.chosenBundle(["node", LOADER, ...args]);
    expect(chosen("hook", "codex")).toBe(loader.HOOK_BUNDLE);
    expect(chosen("hook", "codex", "--untrusted")).toBe(loader.HOOK_BUNDLE);
    for (const args of [
      ["hook", "--untrusted", "codex"],
      ["hook", "codex", "--trusted"],
      ["hook", "codex", "--untrusted", "x"],
      ["render", "--untrusted"],
    ]) {
      expect(chosen(...args)).not.toBe(loader.HOOK_BUNDLE);
    }
  });

  it("answers `sysprompt hook AGENT` from its own bundle as the unbundled CLI does", () => {
    const { dir, home } = project();
    mkdirSync(join(dir, ".git"));
    mkdirSync(join(dir, "pkg"));
    writeFileSync(join(dir, "pkg", "AGENTS.md"), "Pkg rules.\n");
    const call = (session: string) =>
      JSON.stringify({
        session_id: session,
        cwd: dir,
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_input: { command: "ls pkg/AGENTS.md" },
      });
    const bundled = runWith(LOADER, ["hook", "codex"], dir, home, call("a"));
    expect(bundled).toEqual(runWith(UNBUNDLED, ["hook", "codex"], dir, home, call("b")));
    expect(bundled.stdout).toContain("Pkg rules.");
    // Once per session, whichever entry answers.
    expect(runWith(LOADER, ["hook", "codex"], dir, home, call("b")).stdout).toBe("");
    // `hook AGENT --untrusted` (what `export --untrusted --hooks` prints) from the hook's bundle too.
    const untrusted = ["hook", "codex", "--untrusted"];
    const fast = runWith(LOADER, untrusted, dir, home, call("c"));
    expect(fast).toEqual(runWith(UNBUNDLED, untrusted, dir, home, call("d")));
    expect(fast.stdout).toContain("Pkg rules.");
    for (const args of [
      ["hook", "nope"],
      ["hook"],
      ["hook", "codex", "extra"],
      ["hook", "codex", "--untrusted", "extra"],
    ]) {
      expect({ args, ...runWith(LOADER, args, dir, home, "{}") }).toEqual({
        args,
        ...runWith(UNBUNDLED, args, dir, home, "{}"),
      });
    }
  }, 30_000);
});
