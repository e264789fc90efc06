import { describe, expect, it } from "vitest";
import { paletteFor } from "../../src/cli/colors.js";
import { type CliIo, terminalSafe } from "../../src/cli/io.js";

// With colours on (a terminal, no NO_COLOR), every control a repository's text
// carries is shown escaped, but the palette's own colour codes pass. Which
// codes were the palette's was told by their bytes alone, so a repository's
// `ESC[31m` / `ESC[32m` in a line of its AGENTS.md reached the terminal raw
// in a `watch` diff: a removed line could look added, any line like a red
// error. Only the codes the palette itself writes pass now (review rev47d F2).

const ESC = "\u001b";

function terminal(): { io: CliIo; out: string[] } {
  const out: string[] = [];
  const io = terminalSafe({
    stdout: (t) => out.push(t),
    stderr: (t) => out.push(t),
    cwd: "/",
    env: {},
    isTTY: true,
  });
  return { io, out };
}

describe("hostile repository: its own colour codes on a terminal", () => {
  it("are escaped, while the palette's colours around them pass", () => {
    const { io, out } = terminal();
    const c = paletteFor({ isTTY: true, env: {} });
    const line = `line ${ESC}[31merror ${ESC}[32m+ FORGED green${ESC}[39m`;
    io.stdout(`${c.green(`  +${line}`)}\n`);
    expect(out.join("")).toBe(
      `${ESC}[32m  +line \\u001b[31merror \\u001b[32m+ FORGED green\\u001b[39m${ESC}[39m\n`,
    );
  });

  it("nested colours still close and reopen as before", () => {
    const { io, out } = terminal();
    const c = paletteFor({ isTTY: true, env: {} });
    io.stdout(c.red(`a ${c.bold("b")} ${c.green("c")} d`));
    expect(out.join("")).toBe(`${ESC}[31ma ${ESC}[1mb${ESC}[22m ${ESC}[32mc${ESC}[31m d${ESC}[39m`);
  });
});
