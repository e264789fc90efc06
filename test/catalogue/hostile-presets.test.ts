import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CatalogueCase, diag, runCase } from "./_harness.js";

// Agent preset files (agents/<name>.yaml in the agent dir and a trusted
// project's .pi/) are the user's or the project's YAML. A broken one is a
// located diagnostic and sets nothing: the builtin preset stays, so the
// prompt is the one without the bad file. Nothing but a regular text file of
// a few KiB is ever read: a FIFO, a link to /dev/zero, a huge or binary file
// is refused unread.

const USER = "agent/agents/codex.yaml";
const PROJECT = "project/app/.pi/agents/codex.yaml";
const codex = { agent: "codex" } as const;
const invalid =
  (message: string, path: string, line?: number, column?: number) => (root: string) => [
    diag("error", "preset-invalid", message, join(root, path), line, column),
  ];
const TOO_LARGE =
  "larger than 16384 bytes (a preset is a few KB; the cap falls on this line): not a preset; ignored";

/** `n` bytes of distinct unknown keys, one a line. */
function keyFlood(n: number): string {
  let text = "";
  for (let i = 0; text.length < n; i++) text += `k${i.toString(36)}: 1\n`;
  return text;
}

const ONE_LINE = "must be one line of text without control characters, at most 500 characters";
const notRegular = (path: string) => (root: string) => [
  diag(
    "warning",
    "file-not-regular",
    "not a regular file; skipped without opening it",
    join(root, path),
  ),
];

const cases: CatalogueCase[] = [
  {
    name: "preset-bad-yaml",
    layout: [[USER, "agentName: [unclosed\ntools: {\n"]],
    options: codex,
    expected: invalid(
      "not valid YAML (Flow sequence in block collection must be sufficiently indented and end with a ]); the preset file is ignored",
      USER,
      2,
    ),
  },
  {
    name: "preset-not-a-mapping",
    layout: [[USER, "- shell\n- apply_patch\n"]],
    options: codex,
    expected: invalid(
      "a preset must be a mapping such as `agentName: Codex`; the file is ignored",
      USER,
      1,
    ),
  },
  {
    name: "preset-unknown-key",
    layout: [[PROJECT, "# a typo\nagentNmae: Evil\n"]],
    options: codex,
    expected: (root) => [
      diag(
        "warning",
        "preset-invalid",
        'unknown key "agentNmae", ignored; did you mean "agentName"?',
        join(root, PROJECT),
        2,
      ),
    ],
  },
  {
    name: "preset-bad-values",
    layout: [
      [
        USER,
        [
          'agentName: "two\\nlines"',
          "tools: read, write",
          "loadsItself:",
          "  contextFiles: [../../etc/passwd]",
          "export:",
          "  file: ../../.bashrc",
          "  where: x",
          "  setting: x {path}",
          "",
        ].join("\n"),
      ],
    ],
    options: codex,
    expected: (root) => [
      ...invalid(`agentName: ${ONE_LINE}`, USER, 1)(root),
      ...invalid(
        "tools: must be a mapping of tool name to its one-line description",
        USER,
        2,
      )(root),
      ...invalid(
        "loadsItself.contextFiles: must be a list whose entries are file names (CLAUDE.md, .claude/CLAUDE.md) or lists of them",
        USER,
        4,
      )(root),
      ...invalid(
        "export: file: must be a plain file name such as system-prompt.md (no folders)",
        USER,
        6,
      )(root),
    ],
  },
  {
    name: "preset-terminal-escapes",
    layout: [[USER, 'agentName: "\\e[2J\\e]0;pwned\\a"\ntools:\n  shell: "ok\\e[31m"\n']],
    options: codex,
    expected: (root) => [
      ...invalid(`agentName: ${ONE_LINE}`, USER, 1)(root),
      ...invalid(`tools: the description of shell: ${ONE_LINE}`, USER, 3)(root),
    ],
  },
  {
    name: "preset-fifo",
    layout: [[USER, { fifo: true }]],
    options: codex,
    expected: notRegular(USER),
  },
  {
    name: "preset-link-to-dev-zero",
    layout: [[PROJECT, { symlink: "/dev/zero" }]],
    options: codex,
    expected: notRegular(PROJECT),
  },
  {
    name: "preset-huge",
    // Text past the cap: read up to it, then refused (a sparse file would be NUL bytes).
    layout: [[USER, `agentName: Big\n${"# padding\n".repeat(10_000)}`]],
    options: codex,
    // 16,384 bytes: the first line's 15, 1,636 padding lines, and 9 bytes of line 1,638.
    expected: invalid(TOO_LARGE, USER, 1638, 10),
  },
  {
    // Attack: a trusted project's preset of 64 KiB of keys (the render's own
    // agent) took yaml 0.6-1.2 s to parse in every CLI render, and gave 20
    // unknown-key warnings and a count. Past 16 KiB it is refused unparsed,
    // and the builtin preset stays.
    name: "preset-key-flood",
    layout: [[PROJECT, keyFlood(20 * 1024)]],
    options: codex,
    // 20 KiB of lines of 6 to 8 bytes ("k1a3: 1"): the cap falls on line 2,215.
    expected: invalid(TOO_LARGE, PROJECT, 2215, 5),
  },
  {
    name: "preset-binary",
    layout: [[USER, new Uint8Array([0x61, 0x3a, 0x00, 0x01, 0x0a])]],
    options: codex,
    expected: (root) => [
      diag("warning", "file-binary", "binary file (NUL bytes) skipped", join(root, USER)),
    ],
  },
];

describe("catalogue: hostile agent presets", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const { bad } = await runCase(c);
      expect(bad.data.agentName).toBe("Codex");
    });
  }
});
