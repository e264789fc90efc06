import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { type LayerEntry, nearMisses } from "../../src/locate/near-misses.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

/** A listing: names with a dot are files, the others folders. */
const listing = (...names: string[]): LayerEntry[] =>
  names.map((name) => ({ name, type: name.includes(".") ? "file" : "dir" }));

const info = (code: string, path: string, message: string) => ({
  level: "info",
  code,
  message,
  path,
});

describe("nearMisses: hints from a layer folder's listing alone", () => {
  it("singular folders, mis-cased names, SYSTEM_TEMPLATE.md under SYSTEM.md; other names pass", () => {
    const entries = listing(
      "APPEND_SYSTEM.md",
      "Partial",
      "SYSTEM.md",
      "SYSTEM_TEMPLATE.md",
      "Sections",
      "agents",
      "extensions",
      "prompt",
      "section",
      "settings.json",
      "skill",
      "system.md",
    );
    expect(nearMisses("/l", entries, { customFiles: true })).toEqual([
      info("ignored-file", "/l/Partial", "ignored: partials live in partials/"),
      info(
        "ignored-file",
        "/l/SYSTEM_TEMPLATE.md",
        "ignored: both SYSTEM.md and SYSTEM_TEMPLATE.md exist; SYSTEM.md is used",
      ),
      info(
        "file-name-case",
        "/l/Sections",
        "read as sections only where file names ignore case (macOS, Windows) and ignored elsewhere; rename it to sections",
      ),
      info("ignored-file", "/l/prompt", "ignored: slash-command templates live in prompts/"),
      info("ignored-file", "/l/section", "ignored: section files live in sections/"),
      info("ignored-file", "/l/skill", "ignored: skills live in skills/"),
      info(
        "ignored-file",
        "/l/system.md",
        "ignored: names are case-sensitive; SYSTEM.md beside it is used",
      ),
    ]);
  });

  it("rules.md, the builtin folder's name for the general rules, points at general-rules.md", () => {
    expect(
      nearMisses("/l", listing("General-Rules.md", "rules", "rules.md"), { customFiles: true }),
    ).toEqual([
      info(
        "file-name-case",
        "/l/General-Rules.md",
        "read as general-rules.md only where file names ignore case (macOS, Windows) and ignored elsewhere; rename it to general-rules.md",
      ),
      info(
        "ignored-file",
        "/l/rules.md",
        'ignored: a layer\'s general rules (one "- rule" a line) go in general-rules.md, beside it',
      ),
    ]);
    expect(nearMisses("/l", listing("rules.md"), { customFiles: false })).toEqual([]);
  });

  it("a mis-cased name alone: the listing shows it even where opening SYSTEM.md would find it", () => {
    // On macOS and Windows readFile("SYSTEM.md") opens "system.md", so only the listing tells.
    expect(
      nearMisses("/l", listing("System_Template.md", "append_system.md"), { customFiles: true }),
    ).toEqual([
      info(
        "file-name-case",
        "/l/System_Template.md",
        "read as SYSTEM_TEMPLATE.md only where file names ignore case (macOS, Windows) and ignored elsewhere; rename it to SYSTEM_TEMPLATE.md",
      ),
      info(
        "file-name-case",
        "/l/append_system.md",
        "read as APPEND_SYSTEM.md only where file names ignore case (macOS, Windows) and ignored elsewhere; rename it to APPEND_SYSTEM.md",
      ),
    ]);
  });

  it("a SYSTEM.md that is not a file (a FIFO, a folder) is not used, so SYSTEM_TEMPLATE.md gets no hint", () => {
    const entries: LayerEntry[] = [
      { name: "SYSTEM.md", type: "other" },
      { name: "SYSTEM_TEMPLATE.md", type: "file" },
      { name: "sections", type: "link" },
      { name: "system.md", type: "file" },
    ];
    expect(nearMisses("/l", entries, { customFiles: true })).toEqual([
      info(
        "file-name-case",
        "/l/system.md",
        "read as SYSTEM.md only where file names ignore case (macOS, Windows) and ignored elsewhere; rename it to SYSTEM.md",
      ),
    ]);
  });

  it("without custom files, SYSTEM*.md names are not looked at", () => {
    expect(
      nearMisses("/l", listing("SYSTEM.md", "SYSTEM_TEMPLATE.md", "system.md", "section"), {
        customFiles: false,
      }),
    ).toEqual([info("ignored-file", "/l/section", "ignored: section files live in sections/")]);
  });
});

function tree(files: Record<string, string>): string {
  const root = tempDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("files in a user or project layer that are not read get an info diagnostic", () => {
  it("each near miss in both layers, located; what is read still renders", async () => {
    const root = tree({
      "agent/SYSTEM.md": "User base prompt.\n",
      "agent/SYSTEM_TEMPLATE.md": "User template {{cwd}}.\n",
      "agent/partials/sig.txt": "Signed.\n",
      "project/.pi/section/rules.md": "Singular folder.\n",
      "project/.pi/system.md": "Lower-case base prompt.\n",
      "project/.pi/sections/rules.MD": "Upper-case extension.\n",
      "project/.pi/sections/rules.txt": "Text file.\n",
      "project/.pi/sections/.DS_Store": "",
      "project/.pi/sections/team.md~": "Editor backup.\n",
      // Editors' other files beside a save (emacs, vim's write test, JetBrains): silent too.
      "project/.pi/sections/#team.md#": "Auto-save.\n",
      "project/.pi/sections/4913": "",
      "project/.pi/sections/team.md___jb_tmp___": "Safe write.\n",
      "project/.pi/partials/#sig.md#": "Auto-save.\n",
      "project/.pi/sections/extra/more.md": "A sub-folder.\n",
      "project/.pi/settings.json": "{}\n",
    });
    const result = await renderSystemPrompt(pinned(root, { noContextFiles: true }));
    const project = join(root, "project", ".pi");
    expect(result.diagnostics).toEqual([
      info(
        "ignored-file",
        join(root, "agent", "partials", "sig.txt"),
        "ignored: only .md files directly in partials/ are read",
      ),
      info(
        "ignored-file",
        join(root, "agent", "SYSTEM_TEMPLATE.md"),
        "ignored: both SYSTEM.md and SYSTEM_TEMPLATE.md exist; SYSTEM.md is used",
      ),
      info(
        "ignored-file",
        join(project, "sections", "extra"),
        "ignored: only .md files directly in sections/ are read",
      ),
      info(
        "ignored-file",
        join(project, "sections", "rules.MD"),
        'ignored: only names ending in ".md" (lower case) are read; rename it to rules.md',
      ),
      info(
        "ignored-file",
        join(project, "sections", "rules.txt"),
        "ignored: only .md files directly in sections/ are read",
      ),
      info("ignored-file", join(project, "section"), "ignored: section files live in sections/"),
      info(
        "file-name-case",
        join(project, "system.md"),
        "read as SYSTEM.md only where file names ignore case (macOS, Windows) and ignored elsewhere; rename it to SYSTEM.md",
      ),
    ]);
    expect(result.sections[0]).toEqual({
      name: "system",
      text: "User base prompt.",
      source: { layer: "user", path: join(root, "agent", "SYSTEM.md") },
    });
  });

  it("an untrusted project's folder is not looked at", async () => {
    const root = tree({ "project/.pi/section/rules.md": "Singular folder.\n" });
    const result = await renderSystemPrompt(
      pinned(root, { noContextFiles: true, projectTrusted: false }),
    );
    expect(result.diagnostics).toEqual([
      {
        level: "info",
        code: "project-untrusted",
        message: `project is not trusted: ${join(root, "project", ".pi")} (SYSTEM, APPEND, sections, skills) skipped; context files still load`,
      },
    ]);
  });
});
