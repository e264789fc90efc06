import { describe, expect, it } from "vitest";
import { readPiArguments } from "../../../src/integrations/pi/argv.js";
import { booleanFlag } from "../../../src/integrations/pi/flag-value.js";
import { createSyspromptExtension, TREE_FLAG } from "../../../src/integrations/pi/index.js";
import { fakeContext, fakePi } from "./_fake-pi.js";

const read = (...args: string[]) => {
  const { trustOverride, flags } = readPiArguments(args);
  return { trustOverride, flags: Object.fromEntries(flags) };
};

describe("readPiArguments (pi 1.6.0's parseArgs, for what pi does not pass on)", () => {
  it("the last --approve / -a / --no-approve / -na is the override", () => {
    expect(read().trustOverride).toBeUndefined();
    expect(read("-p", "hi", "--approve").trustOverride).toBe(true);
    expect(read("-a").trustOverride).toBe(true);
    expect(read("--approve", "-na").trustOverride).toBe(false);
    expect(read("--no-approve", "--approve").trustOverride).toBe(true);
  });

  it("an --approve that is another option's value, or after --, is not one", () => {
    expect(read("--system-prompt", "--approve").trustOverride).toBeUndefined();
    expect(read("--append-system-prompt", "-a", "-e", "--approve").trustOverride).toBeUndefined();
    expect(read("--", "--approve").trustOverride).toBeUndefined();
    expect(read("-p", "---", "--approve").trustOverride).toBe(true);
  });

  it("extension flags as pi reads them: a next argument that is not -… or @… is the value", () => {
    expect(read("-p", "--sysprompt-tree", "fix the tests")).toEqual({
      trustOverride: undefined,
      flags: { "sysprompt-tree": { value: "fix the tests", attached: false } },
    });
    expect(read("-p", "hi", "--sysprompt-tree").flags).toEqual({
      "sysprompt-tree": { value: true },
    });
    expect(read("--sysprompt-tree", "--approve").flags).toEqual({
      "sysprompt-tree": { value: true },
    });
    expect(read("--sysprompt-tree", "@file.md").flags).toEqual({
      "sysprompt-tree": { value: true },
    });
    expect(read("--sysprompt-tree=no").flags).toEqual({
      "sysprompt-tree": { value: "no", attached: true },
    });
    // pi's own switches and option values are not extension flags.
    expect(read("--no-session", "x", "--model", "--sysprompt-tree", "--mode", "rpc").flags).toEqual(
      {},
    );
  });
});

describe("booleanFlag", () => {
  it("explicit false / 0 / no / off turn it off; true / 1 / yes / on and no value turn it on", () => {
    for (const word of ["false", "0", "no", "off", "FALSE", "No"]) {
      expect(booleanFlag("f", { value: word, attached: false }, true)).toEqual({
        on: false,
        diagnostics: [],
      });
      expect(booleanFlag("f", { value: word, attached: true }, true).on).toBe(false);
    }
    for (const word of ["true", "1", "yes", "on"]) {
      expect(booleanFlag("f", { value: word, attached: false }, true)).toEqual({
        on: true,
        diagnostics: [],
      });
    }
    expect(booleanFlag("f", { value: true }, true)).toEqual({ on: true, diagnostics: [] });
  });

  it("not on the command line: pi's value decides (an SDK host's)", () => {
    expect(booleanFlag("f", undefined, true).on).toBe(true);
    expect(booleanFlag("f", undefined, false).on).toBe(false);
    expect(booleanFlag("f", undefined, undefined).on).toBe(false);
  });

  it("a swallowed message is said, with what to type instead", () => {
    expect(
      booleanFlag("sysprompt-tree", { value: "fix the tests", attached: false }, true),
    ).toEqual({
      on: true,
      diagnostics: [
        {
          level: "warning",
          code: "pi-flag-value",
          message:
            '--sysprompt-tree takes no value, so pi read "fix the tests" as its value and not as a message; the flag is on. Put the flag after the message (pi -p "fix the tests" --sysprompt-tree) or end the options with -- (pi -p --sysprompt-tree -- "fix the tests")',
        },
      ],
    });
    expect(booleanFlag("f", { value: "maybe", attached: true }, true).diagnostics).toEqual([
      {
        level: "warning",
        code: "pi-flag-value",
        message:
          '--f="maybe" is not true or false; the flag is on. Write --f alone to turn it on, or --f=false to turn it off',
      },
    ]);
  });

  it("the quoted value is one line, cut short, with control characters escaped", () => {
    const hostile = `a\u001b]52;c;x\u0007\n\u009b2J${"z".repeat(100)}`;
    const [d] = booleanFlag("f", { value: hostile, attached: false }, true).diagnostics;
    const message = d?.message ?? "";
    expect(message).toContain('"a\\u001b]52;c;x\\u0007\\n\\u009b2J');
    expect(message).toContain(`J${"z".repeat(46)}…"`);
    expect(message).not.toContain("z".repeat(47));
    const controls = [...message].filter((c) => {
      const code = c.codePointAt(0) ?? 0;
      return code < 0x20 || (code >= 0x7f && code <= 0x9f);
    });
    expect(controls).toEqual([]);
  });
});

describe("the tree flag in the extension", () => {
  const extension = (argv: string[], flags: Record<string, boolean> = {}) => {
    const pi = fakePi(flags);
    const stderr: string[] = [];
    const options: unknown[] = [];
    createSyspromptExtension({
      env: { PI_CODING_AGENT_DIR: "/nonexistent/agent" },
      home: "/nonexistent",
      argv,
      writeStderr: (text) => stderr.push(text),
      newRenderer: () => ({
        render: async (o) => {
          options.push(o.workspaceTree);
          return { text: "x", blocks: [], sections: [], diagnostics: [], steps: [] };
        },
        close: () => {},
      }),
    })(pi.api);
    return { pi, stderr, options };
  };

  it('`pi -p --sysprompt-tree "fix the tests"`: said at session start, where no prompt follows', async () => {
    // pi sets a boolean flag to true whatever its value was.
    const { pi, stderr } = extension(["-p", "--sysprompt-tree", "fix the tests"], {
      [TREE_FLAG]: true,
    });
    await pi.emit("session_start", { reason: "startup" }, fakeContext({ cwd: "/p", hasUI: false }));
    expect(stderr).toEqual([
      'sysprompt: warning [pi-flag-value] --sysprompt-tree takes no value, so pi read "fix the tests" as its value and not as a message; the flag is on. Put the flag after the message (pi -p "fix the tests" --sysprompt-tree) or end the options with -- (pi -p --sysprompt-tree -- "fix the tests")\n',
    ]);
  });

  it("`--sysprompt-tree false` turns the tree off, silently; `--sysprompt-tree` alone on", async () => {
    for (const [argv, on] of [
      [["-p", "hi", "--sysprompt-tree", "false"], false],
      [["-p", "hi", "--sysprompt-tree=0"], false],
      [["-p", "hi", "--sysprompt-tree"], true],
      [["-p", "hi"], false],
    ] as const) {
      const { pi, stderr, options } = extension(
        [...argv],
        argv.length > 2 ? { [TREE_FLAG]: true } : {},
      );
      const ctx = fakeContext({ cwd: "/p", hasUI: false });
      await pi.emit("session_start", { reason: "startup" }, ctx);
      await pi.beforeAgentStart({ cwd: "/p" }, ctx);
      expect([options, stderr]).toEqual([[on], []]);
    }
  });
});
