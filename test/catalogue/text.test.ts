import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cutMarker } from "../../src/repo-files/capped-read.js";
import { type CatalogueCase, diag, type Rendered, runCase } from "./_harness.js";

// Encodings and sizes: a BOM and CRLF are normalised away; invalid UTF-8 is
// decoded with U+FFFD and a warning; NUL bytes mean binary (not read); a
// 50 MB context file is cut at 256 KiB with a marker line (only its head is
// read), and a section file over 1 MiB is not read. The 50 MB files are
// sparse: built with truncate, they take no disk space.

const APP_AGENTS = "project/app/AGENTS.md";
const RULES = "project/app/.pi/sections/rules.md";
const KIB = 1024;
const MIB = 1024 * KIB;
const LINE = "Use pnpm, never npm.\n";
/** Text longer than the 256 KiB a context file keeps, so the sparse (NUL) tail is never read. */
const LONG_HEAD = LINE.repeat(Math.ceil((300 * KIB) / LINE.length));
const FFFD = "\uFFFD";

/** The context files are the clean ones and then the cwd's, with `content`. */
const appContext =
  (content: string) =>
  (bad: Rendered, clean: Rendered, root: string): void => {
    expect(bad.data.contextFiles).toEqual([
      ...clean.data.contextFiles,
      { path: join(root, APP_AGENTS), content, origin: "project" },
    ]);
  };

const cases: CatalogueCase[] = [
  {
    name: "context-bom-crlf",
    layout: [[APP_AGENTS, "\uFEFF# App\r\n\r\nUse pnpm.\r\n"]],
    changed: ["project_context"],
    expected: () => [],
    verify: appContext("# App\n\nUse pnpm."),
  },
  {
    name: "context-invalid-utf8",
    layout: [[APP_AGENTS, Buffer.from([0x55, 0x73, 0x65, 0x20, 0xff, 0xfe, 0x20, 0x21, 0x0a])]],
    changed: ["project_context"],
    expected: (root) => [
      diag(
        "warning",
        "file-encoding",
        "file is not valid UTF-8; invalid bytes were replaced with U+FFFD",
        join(root, APP_AGENTS),
      ),
    ],
    verify: appContext(`Use ${FFFD}${FFFD} !`),
  },
  {
    name: "context-nul-bytes",
    layout: [[APP_AGENTS, "Use pnpm.\u0000\n"]],
    expected: (root) => [
      diag("warning", "file-binary", "binary file (NUL bytes) skipped", join(root, APP_AGENTS)),
    ],
  },
  {
    name: "context-50mb",
    layout: [[APP_AGENTS, { sparse: 50 * MIB, head: LONG_HEAD }]],
    changed: ["project_context"],
    expected: (root) => [
      diag(
        "warning",
        "context-cut",
        "file is 52428800 bytes, over the 262144-byte limit: cut after 262144 bytes, 52166656 left out",
        join(root, APP_AGENTS),
      ),
    ],
    verify: appContext(
      // Whole lines up to the cut, the part of the line it falls in, then the marker.
      `${LONG_HEAD.slice(0, 256 * KIB).trimEnd()}\n${cutMarker(50 * MIB - 256 * KIB, 256 * KIB)}`,
    ),
  },
  {
    // The line counts the file's lines: a BOM and CRLF change no line number.
    name: "section-bom-crlf-error-line",
    layout: [[RULES, "\uFEFF---\r\norder: 30\r\n---\r\nRules:\r\n{{#if rules}}\r\n"]],
    expected: (root) => [
      diag(
        "error",
        "template",
        'Block "if" is never closed: expected {{/if}}; the builtin version is used instead',
        join(root, RULES),
        5,
        1,
      ),
    ],
  },
  {
    name: "section-invalid-utf8",
    layout: [
      [RULES, Buffer.concat([Buffer.from("---\norder: 30\n---\nRules "), Buffer.from([0xff])])],
    ],
    changed: ["rules"],
    expected: (root) => [
      diag(
        "warning",
        "file-encoding",
        "file is not valid UTF-8; invalid bytes were replaced with U+FFFD",
        join(root, RULES),
      ),
    ],
    verify: (bad) => {
      expect(bad.result.sections.find((s) => s.name === "rules")?.text).toEqual(
        `<rules>\nRules ${FFFD}\n</rules>`,
      );
    },
  },
  {
    name: "section-nul-bytes",
    layout: [[RULES, "---\norder: 30\n---\nRules\u0000\n"]],
    expected: (root) => [diag("warning", "file-binary", "binary file skipped", join(root, RULES))],
  },
  {
    name: "section-50mb",
    layout: [[RULES, { sparse: 50 * MIB, head: "---\norder: 30\n---\n" }]],
    expected: (root) => [
      diag(
        "warning",
        "file-too-large",
        "file is 52428800 bytes, over the 1048576-byte limit; skipped",
        join(root, RULES),
      ),
    ],
  },
];

describe("catalogue: encodings and sizes", () => {
  for (const c of cases) it(c.name, () => runCase(c).then(() => undefined));
});
