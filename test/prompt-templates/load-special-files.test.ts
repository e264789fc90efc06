import { execFileSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_TEXT_FILE_BYTES } from "../../src/_fs.js";
import { LOADERS } from "./_helpers.js";

// Things git cannot hold are made here, in a fresh folder per test.

function canMakeFifo(): boolean {
  const probe = mkdtempSync(join(tmpdir(), "pt-fifo-probe-"));
  try {
    execFileSync("mkfifo", [join(probe, "p")], { stdio: "ignore" });
    return true;
  } catch {
    // No mkfifo binary (Windows): the FIFO tests are skipped, not failed.
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const HAS_FIFO = canMakeFifo();
// Root reads any file whatever its mode, so a permission test proves nothing there.
const IS_ROOT = process.getuid?.() === 0;

describe.each(LOADERS)("%s on files git cannot hold", (_name, load) => {
  let root: string;
  let prompts: string;
  const options = () => ({
    cwd: join(root, "project"),
    agentDir: join(root, "agent"),
    home: join(root, "home"),
  });

  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "prompt-templates-")));
    prompts = join(root, "agent", "prompts");
    mkdirSync(prompts, { recursive: true });
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it("strips a BOM and normalises CRLF before reading frontmatter", async () => {
    writeFileSync(
      join(prompts, "windows.md"),
      "\uFEFF---\r\ndescription: From Windows\r\nargument-hint: <x>\r\n---\r\nLine one\r\nLine two\r\n",
    );
    expect(await load(options())).toEqual({
      templates: [
        {
          name: "windows",
          description: "From Windows",
          argumentHint: "<x>",
          content: "Line one\nLine two\n",
          filePath: join(prompts, "windows.md"),
          source: "user",
        },
      ],
      diagnostics: [],
    });
  });

  it("loads invalid UTF-8 with replacement characters and a warning", async () => {
    writeFileSync(join(prompts, "latin1.md"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(await load(options())).toEqual({
      templates: [
        {
          name: "latin1",
          description: "caf\uFFFD",
          content: "caf\uFFFD\n",
          filePath: join(prompts, "latin1.md"),
          source: "user",
        },
      ],
      diagnostics: [
        {
          level: "warning",
          code: "file-encoding",
          message: "file is not valid UTF-8; invalid bytes were replaced with U+FFFD",
          path: join(prompts, "latin1.md"),
        },
      ],
    });
  });

  it("skips binary and oversized files with a warning", async () => {
    writeFileSync(join(prompts, "binary.md"), Buffer.from([0x61, 0x00, 0x62]));
    writeFileSync(join(prompts, "huge.md"), "x".repeat(MAX_TEXT_FILE_BYTES + 1));
    expect(await load(options())).toEqual({
      templates: [],
      diagnostics: [
        {
          level: "warning",
          code: "file-binary",
          message: "binary file skipped",
          path: join(prompts, "binary.md"),
        },
        {
          level: "warning",
          code: "file-too-large",
          message: `file is ${MAX_TEXT_FILE_BYTES + 1} bytes, over the ${MAX_TEXT_FILE_BYTES}-byte limit; skipped`,
          path: join(prompts, "huge.md"),
        },
      ],
    });
  });

  // Within your home folder: a file of yours linked out of it and the agent dir is refused
  // (review rev107a F2; test/catalogue/hostile-kit-clone-agent-dir-link-out).
  it("follows symlinks to files and skips broken ones", async () => {
    mkdirSync(join(root, "home"));
    const elsewhere = join(root, "home", "elsewhere.md");
    writeFileSync(elsewhere, "Linked in\n");
    symlinkSync(elsewhere, join(prompts, "linked.md"));
    symlinkSync(join(root, "nowhere.md"), join(prompts, "broken.md"));
    expect(await load(options())).toEqual({
      templates: [
        {
          name: "linked",
          description: "Linked in",
          content: "Linked in\n",
          filePath: join(prompts, "linked.md"),
          source: "user",
        },
      ],
      diagnostics: [
        {
          level: "info",
          code: "symlink-broken",
          message: "broken symbolic link skipped",
          path: join(prompts, "broken.md"),
        },
      ],
    });
  });

  // The project's prompts folder linked out of the project is refused file by file (trust covers
  // the project's files, not where its links lead); an explicit folder is the caller's and is followed.
  it("follows a symlinked explicit folder, not a project prompts folder linked out of the project", async () => {
    const shared = join(root, "shared");
    mkdirSync(shared);
    writeFileSync(join(shared, "shared.md"), "Shared\n");
    symlinkSync(shared, join(root, "project-link"));
    mkdirSync(join(root, "project", ".pi"), { recursive: true });
    symlinkSync(shared, join(root, "project", ".pi", "prompts"));
    const result = await load({ ...options(), paths: [join(root, "project-link")] });
    expect(result).toEqual({
      templates: [
        {
          name: "shared",
          description: "Shared",
          content: "Shared\n",
          filePath: join(root, "project-link", "shared.md"),
          source: "option",
        },
      ],
      diagnostics: [
        {
          level: "warning",
          code: "file-outside-project",
          // The project's folder is refused at the folder, not listed (rev82e F2).
          message: `not read: it resolves to ${shared}, outside the project root ${join(root, "project")}`,
          path: join(root, "project", ".pi", "prompts"),
        },
      ],
    });
  });

  it.skipIf(!HAS_FIFO)("reports a FIFO without opening it, listed or explicit", async () => {
    execFileSync("mkfifo", [join(prompts, "pipe.md")]);
    execFileSync("mkfifo", [join(root, "explicit-pipe.md")]);
    const result = await load({ ...options(), paths: [join(root, "explicit-pipe.md")] });
    expect(result).toEqual({
      templates: [],
      diagnostics: [
        {
          level: "warning",
          code: "file-not-regular",
          message: "not a regular file; skipped without opening it",
          path: join(prompts, "pipe.md"),
        },
        {
          level: "error",
          code: "path-not-file",
          message:
            "prompt template path is neither a file nor a folder; skipped without opening it",
          path: join(root, "explicit-pipe.md"),
        },
      ],
    });
  });

  it.skipIf(IS_ROOT)("skips a file it may not read with a warning", async () => {
    const locked = join(prompts, "locked.md");
    writeFileSync(locked, "Secret\n");
    chmodSync(locked, 0o000);
    const result = await load(options());
    expect(result.templates).toEqual([]);
    expect(result.diagnostics.map(({ level, code, path }) => ({ level, code, path }))).toEqual([
      { level: "warning", code: "file-unreadable", path: locked },
    ]);
  });

  it("warns about a file with no name and one whose name cannot be typed", async () => {
    writeFileSync(join(prompts, ".md"), "Nameless\n");
    writeFileSync(join(prompts, "two words.md"), "Spaced\n");
    expect(await load(options())).toEqual({
      templates: [
        {
          name: "two words",
          description: "Spaced",
          content: "Spaced\n",
          filePath: join(prompts, "two words.md"),
          source: "user",
        },
      ],
      diagnostics: [
        {
          level: "warning",
          code: "template-name",
          message: 'prompt template skipped: ".md" has no name before .md',
          path: join(prompts, ".md"),
        },
        {
          level: "info",
          code: "template-name",
          message:
            'prompt template "two words" cannot be invoked: a slash-command name ends at the first whitespace',
          path: join(prompts, "two words.md"),
        },
      ],
    });
  });

  it("warns when a default prompts location is a file, not a folder", async () => {
    rmSync(prompts, { recursive: true });
    writeFileSync(prompts, "Not a folder\n");
    expect(await load(options())).toEqual({
      templates: [],
      diagnostics: [
        {
          level: "warning",
          code: "prompts-not-folder",
          message: "prompt templates folder is not a folder; skipped",
          path: prompts,
        },
      ],
    });
  });

  it("reads a folder in code-unit order, whatever the creation order", async () => {
    // Templates come back sorted by name anyway; the diagnostics show the read order.
    const names = ["b", "B", "a", "_", "A"];
    for (const name of names) writeFileSync(join(prompts, `${name}.md`), "\0");
    const { diagnostics } = await load(options());
    expect(diagnostics.map((d) => d.path)).toEqual(
      ["A", "B", "_", "a", "b"].map((name) => join(prompts, `${name}.md`)),
    );
  });
});
