import { describe, it } from "vitest";
import { bytePath } from "./_fixture.js";
import { about, runTemplatesCase, type TemplatesCase } from "./_templates.js";

// Slash-command templates with each problem a file can have, beside the
// baseline's `review` (see _templates.ts for what a case checks).

const PROMPTS = "project/app/.pi/prompts";
const FIX = `${PROMPTS}/fix.md`;
const MIB = 1024 * 1024;

const SKIPPED = "prompt template skipped:";
/** Frontmatter that is not valid YAML (`reason`), read line by line: the template is kept. */
const notYaml = (reason: string, line: number, column: number) =>
  about(
    FIX,
    "warning",
    "frontmatter-not-yaml",
    `frontmatter is not valid YAML (${reason}); read line by line as "key: value", the way other agents' readers take it; quote the value to make it YAML`,
    line,
    column,
  );

const cases: TemplatesCase[] = [
  {
    name: "prompt-yaml-syntax",
    layout: [[FIX, "---\ndescription: [Fix\n---\nFix $1.\n"]],
    expected: notYaml(
      "Flow sequence in block collection must be sufficiently indented and end with a ]",
      2,
      14,
    ),
    added: ["fix"],
  },
  {
    name: "prompt-alias-bomb",
    layout: [
      [
        FIX,
        `---\na: &a [x, x, x, x, x, x, x, x, x]\n${"bcdefgh"
          .split("")
          .map((c, i) => `${c}: &${c} [${Array(9).fill(`*${"abcdefg"[i]}`).join(", ")}]\n`)
          .join("")}---\nFix $1.\n`,
      ],
    ],
    expected: notYaml("Excessive alias count indicates a resource exhaustion attack", 2, 1),
    added: ["fix"],
  },
  {
    name: "prompt-js-engine",
    layout: [[FIX, "---js\n{ description: 'x' }\n---\nFix $1.\n"]],
    expected: about(
      FIX,
      "warning",
      "frontmatter-engine",
      `${SKIPPED} "---js" frontmatter is executable code and is never run; use YAML`,
      1,
      1,
    ),
  },
  {
    name: "prompt-tab-indent",
    layout: [[FIX, "---\ndescription: Fix\n\targument-hint: x\n---\nFix $1.\n"]],
    expected: notYaml("Tabs are not allowed as indentation", 3, 1),
    added: ["fix"],
  },
  {
    name: "prompt-duplicate-key",
    layout: [[FIX, "---\ndescription: A\ndescription: B\n---\nFix $1.\n"]],
    expected: notYaml('key "description" appears twice', 3, 1),
    added: ["fix"],
  },
  {
    name: "prompt-bom-crlf",
    layout: [[FIX, "\uFEFF---\r\ndescription: Fix\r\n---\r\nFix $1.\r\n"]],
    expected: () => [],
    added: ["fix"],
  },
  {
    name: "prompt-invalid-utf8",
    layout: [[FIX, Buffer.from([0x46, 0x69, 0x78, 0xff, 0x0a])]],
    expected: about(
      FIX,
      "warning",
      "file-encoding",
      "file is not valid UTF-8; invalid bytes were replaced with U+FFFD",
    ),
    added: ["fix"],
  },
  {
    name: "prompt-nul-bytes",
    layout: [[FIX, "Fix\u0000\n"]],
    expected: about(FIX, "warning", "file-binary", "binary file skipped"),
  },
  {
    name: "prompt-50mb",
    layout: [[FIX, { sparse: 50 * MIB, head: "Fix $1.\n" }]],
    expected: about(
      FIX,
      "warning",
      "file-too-large",
      "file is 52428800 bytes, over the 1048576-byte limit; skipped",
    ),
  },
  {
    name: "prompt-fifo",
    layout: [[FIX, { fifo: true }]],
    expected: about(
      FIX,
      "warning",
      "file-not-regular",
      "not a regular file; skipped without opening it",
    ),
  },
  {
    name: "prompt-socket",
    layout: [[FIX, { socket: true }]],
    expected: about(
      FIX,
      "warning",
      "file-not-regular",
      "not a regular file; skipped without opening it",
    ),
  },
  {
    name: "prompt-symlink-loop",
    layout: [[FIX, { symlink: "fix.md" }]],
    expected: about(FIX, "info", "symlink-broken", "broken symbolic link skipped"),
  },
  {
    // The file it linked to was deleted.
    name: "prompt-symlink-dangling",
    layout: [[FIX, { symlink: "gone.md" }]],
    expected: about(FIX, "info", "symlink-broken", "broken symbolic link skipped"),
  },
  {
    name: "prompt-name-with-space",
    layout: [[`${PROMPTS}/fix it.md`, "Fix $1.\n"]],
    expected: about(
      `${PROMPTS}/fix it.md`,
      "info",
      "template-name",
      'prompt template "fix it" cannot be invoked: a slash-command name ends at the first whitespace',
    ),
    added: ["fix it"],
  },
  {
    name: "prompt-name-with-newline",
    layout: [[`${PROMPTS}/fix\nit.md`, "Fix $1.\n"]],
    expected: about(
      `${PROMPTS}/fix\nit.md`,
      "info",
      "template-name",
      'prompt template "fix\nit" cannot be invoked: a slash-command name ends at the first whitespace',
    ),
    added: ["fix\nit"],
  },
  {
    // The listing decodes the byte 0xFF as U+FFFD; no file has that name, so none opens.
    name: "prompt-name-not-utf8",
    layout: [[bytePath(`${PROMPTS}/fix`, [0xff], ".md"), "Fix $1.\n"]],
    expected: about(
      `${PROMPTS}/fix\uFFFD.md`,
      "warning",
      "name-not-utf8",
      "the name of this file is not valid UTF-8 (shown with U+FFFD), so it cannot be opened by that name; rename it",
    ),
  },
  {
    name: "prompts-folder-is-a-file",
    layout: [["agent/prompts", "not a folder"]],
    expected: about(
      "agent/prompts",
      "warning",
      "prompts-not-folder",
      "prompt templates folder is not a folder; skipped",
    ),
  },
];

describe("catalogue: prompt templates", () => {
  for (const c of cases) it(c.name, () => runTemplatesCase(c));
});
