import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cliAt } from "./_cli-at.js";

// rev64d F6: `--system-prompt` / `--append-system-prompt` take `<text|file>`, a placeholder the
// U+FFFD check (rev60d F2) did not know. `--system-prompt ./a\xe9.md` reaches Node as
// `./a\uFFFD.md` and read the OTHER file of that spelling, exit 0. A value spelled as a path is
// now held to the path rule (exit 2, the encoding said); a text holding U+FFFD stays text.

function project() {
  const base = tempDir();
  const p = join(base, "p");
  mkdirSync(join(p, ".git"), { recursive: true });
  mkdirSync(join(base, "home"));
  // Yours, its name in Latin-1 (`a\xe9.md`), and the twin that argv's decoding names.
  writeFileSync(
    Buffer.concat([Buffer.from(join(p, "a")), Buffer.from([0xe9]), Buffer.from(".md")]),
    "RIGHT\n",
  );
  writeFileSync(join(p, "a\uFFFD.md"), "WRONG-FILE-MARKER\n");
  return { p, home: join(base, "home") };
}

describe("hostile-cli-text-or-file-not-utf8: a <text|file> path holding U+FFFD is refused", () => {
  it.each(["--system-prompt", "--append-system-prompt"])(
    "%s ./a\\uFFFD.md: exit 2, no twin read",
    async (flag) => {
      const { p, home } = project();
      const { code, out, err } = await cliAt(["render", flag, "./a\uFFFD.md"], p, home);
      expect({ code, out }).toEqual({ code: 2, out: "" });
      expect(err).toContain(`${flag}: the path is not UTF-8`);
      expect(err).not.toContain("WRONG-FILE-MARKER");
    },
  );

  it("a text holding U+FFFD is text, as before", async () => {
    const { p, home } = project();
    const { code, out } = await cliAt(
      ["render", "--append-system-prompt", "Keep \uFFFD as is"],
      p,
      home,
    );
    expect(code).toBe(0);
    expect(out).toContain("Keep \uFFFD as is");
  });
});
