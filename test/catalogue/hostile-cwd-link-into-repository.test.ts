import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  buildWorkspaceTree,
  buildWorkspaceTrees,
  loadContextFiles,
  loadContextForPaths,
  loadRules,
  renderSystemPrompt,
  traceRules,
} from "../../src/index.js";
import { createPromptSession } from "../../src/session/index.js";
import { NOW, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev56a F3 (medium, borderline high): a working folder named through a link from outside a
// repository into a subfolder of it (`--cwd ~/app` with `~/app -> ~/src/mono/packages/app`, an
// editor's linked workspace) lost the repository: the project root was searched up the path as
// written (w/c, w, ...), never reaching R, so `--untrusted` imported the files R's `.gitignore` and
// `.git/info/exclude` name, the tree listed them, touch gave an ignored and a hidden folder's
// AGENTS.md, and R/AGENTS.md was silently left out; `--root` through such a link the same. git
// judges from the real folder. Now the working folder (and each extra root) is its real path;
// the prompt shows the working folder as given.
//
// Review rev57a F3 (medium): the public gathering functions (loadContextFiles, loadContextForPaths,
// loadRules / traceRules, buildWorkspaceTree(s)) still took cwd as written, with the same leaks;
// each now finds the project from cwd's real folder too. rev57a F1 (low): through such a link with no
// `.pi`, every render and hook call warned `config-refused`. rev57a F6 (low): a project file named
// by its real absolute path was judged as out of the working folder (refused, trusted).

const PRIVATE = ["PRIV-IGN", "PRIV-EXCL", "PRIV-SECRET-EXT"];

function layout() {
  const root = tempDir();
  writeFiles(root, {
    "R/.git/HEAD": "ref: refs/heads/main\n",
    "R/.git/info/exclude": "excl.md\n",
    "R/.gitignore": "ign.md\n*.secret\nign/\n",
    "R/AGENTS.md": "ROOT-AGENTS\n",
    "R/sub/AGENTS.md": "SUB-AGENTS\n@ign.md\n@excl.md\n@a.secret\n",
    "R/sub/ign.md": "PRIV-IGN\n",
    "R/sub/excl.md": "PRIV-EXCL\n",
    "R/sub/a.secret": "PRIV-SECRET-EXT\n",
    "R/sub/ign/AGENTS.md": "PRIV-IGN-AGENTS\n",
    "R/sub/ign/f.ts": "",
    "R/sub/.hid/AGENTS.md": "PRIV-HID-AGENTS\n",
    "R/sub/.hid/f.ts": "",
    "R/sub/ok/AGENTS.md": "OK-AGENTS\n",
    "R/sub/ok/f.ts": "",
    "R/.cursor/rules/root.mdc": "---\nalwaysApply: true\n---\nROOT-RULE\n",
    "R/sub/.cursor/rules/ok.mdc": "---\nalwaysApply: true\n---\nSUB-RULE\n",
    "R/sub/.cursor/rules/excl.md": "---\nalwaysApply: true\n---\nPRIV-RULE\n",
    "p/.git/HEAD": "ref: refs/heads/main\n",
    "p/AGENTS.md": "P-AGENTS\n",
    "agent/.keep": "",
  });
  for (const git of ["R", "p"]) {
    mkdirSync(join(root, git, ".git", "objects"));
    mkdirSync(join(root, git, ".git", "refs"));
  }
  mkdirSync(join(root, "w"));
  symlinkSync("../R/sub", join(root, "w", "c"));
  const base = {
    home: join(root, "home"),
    agentDir: join(root, "agent"),
    env: {},
    now: NOW,
    machine: { platform: "linux", arch: "x64" } as const,
    projectTrusted: false,
  };
  return { root, linked: join(root, "w", "c"), real: join(root, "R", "sub"), base };
}

/** The codes and the files named by the render's import refusals. */
const refusals = (diagnostics: readonly { code: string; message: string }[]) =>
  diagnostics
    .filter((d) => d.code.startsWith("import-"))
    .map((d) => `${d.code} ${d.message.split(":")[0]}`)
    .sort();

describe("hostile-cwd-link-into-repository: a working folder named through a link keeps its repository", () => {
  it("--untrusted through the link imports and refuses what the real folder does, root AGENTS.md read", async () => {
    const { linked, real, base } = layout();
    const viaLink = await renderSystemPrompt({ ...base, cwd: linked });
    const direct = await renderSystemPrompt({ ...base, cwd: real });
    for (const secret of PRIVATE) expect(viaLink.text).not.toContain(secret);
    expect(viaLink.text).toContain("ROOT-AGENTS");
    expect(viaLink.text).toContain("SUB-AGENTS");
    expect(refusals(viaLink.diagnostics)).toEqual(refusals(direct.diagnostics));
    expect(refusals(viaLink.diagnostics)).toHaveLength(3);
    // The prompt names the working folder as it was given.
    expect(viaLink.text).toContain(`Current working directory: ${linked}`);
    expect(direct.text).toContain(`Current working directory: ${real}`);
  });

  it("the workspace tree through the link lists none of the ignored or excluded files", async () => {
    const { linked, base } = layout();
    const result = await renderSystemPrompt({ ...base, cwd: linked, workspaceTree: true });
    expect(result.text).toContain("ok/");
    for (const name of ["ign.md", "excl.md", "a.secret"]) {
      expect(result.text).not.toMatch(new RegExp(`^\\s+${name.replace(".", "\\.")}\\b`, "m"));
    }
  });

  it("an extra root named through the link keeps its repository's rules too", async () => {
    const { root, linked, base } = layout();
    const result = await renderSystemPrompt({ ...base, cwd: join(root, "p"), roots: [linked] });
    expect(result.text).toContain("SUB-AGENTS");
    for (const secret of PRIVATE) expect(result.text).not.toContain(secret);
    expect(refusals(result.diagnostics)).toHaveLength(3);
  });

  it("a path you name inside the working folder, given through the link, is judged from the real folder", async () => {
    const { real, linked, base } = layout();
    symlinkSync("ign.md", join(real, "notes.md"));
    const named = { ...base, appendSystemPrompt: "./notes.md" };
    for (const cwd of [linked, real]) {
      await expect(renderSystemPrompt({ ...named, cwd })).rejects.toThrow(/ignored by git/);
    }
    const trusted = await renderSystemPrompt({ ...named, cwd: linked, projectTrusted: true });
    expect(trusted.text).toContain("PRIV-IGN");
  });

  it("an untrusted session through the link gives no ignored or hidden folder's AGENTS.md on touch", async () => {
    const { linked, base } = layout();
    const session = createPromptSession({ ...base, cwd: linked });
    try {
      for (const folder of ["ign", ".hid"]) {
        const touched = await session.contextFor([join(linked, folder, "f.ts")]);
        expect(touched.files).toEqual([]);
        expect(touched.diagnostics.map((d) => d.code)).toContain("context-ignored");
      }
      const ok = await session.contextFor([join(linked, "ok", "f.ts")]);
      expect(ok.files.map((f) => f.content.trim())).toEqual(["OK-AGENTS"]);
    } finally {
      session.close();
    }
  });
});

describe("hostile-cwd-link-into-repository: the public gathering functions find the repository from the real folder (rev57a F3)", () => {
  const texts = (files: readonly { content: string }[]) => files.map((f) => f.content.trim());

  it("loadContextFiles through the link imports none of the private files and keeps the root AGENTS.md", async () => {
    const { linked, real, base } = layout();
    const viaLink = await loadContextFiles({ ...base, cwd: linked });
    const direct = await loadContextFiles({ ...base, cwd: real });
    const joined = texts(viaLink.files).join("\n");
    for (const secret of PRIVATE) expect(joined).not.toContain(secret);
    expect(texts(viaLink.files)).toEqual(texts(direct.files));
    expect(joined).toContain("ROOT-AGENTS");
    expect(refusals(viaLink.diagnostics)).toEqual(refusals(direct.diagnostics));
    expect(refusals(viaLink.diagnostics)).toHaveLength(3);
  });

  it("buildWorkspaceTree and buildWorkspaceTrees through the link list none of the ignored or excluded files", async () => {
    const { root, linked, base } = layout();
    const opts = { home: base.home, projectTrusted: false, mtime: NOW };
    const one = await buildWorkspaceTree(linked, opts);
    const both = await buildWorkspaceTrees(join(root, "p"), [linked], opts);
    const lists = [one.rendered, both.roots[0]?.tree?.rendered ?? ""];
    for (const text of lists) {
      expect(text).toContain("ok/");
      for (const name of ["ign.md", "excl.md", "a.secret", "ign/"])
        expect(text).not.toContain(name);
    }
    // The root line names the folder as it was given.
    expect(one.rendered.split("\n")[0]).toMatch(/^c\//);
  });

  it("loadContextForPaths through the link gives no ignored, hidden or excluded folder's AGENTS.md", async () => {
    const { real, linked, base } = layout();
    mkdirSync(join(real, "excl"));
    writeFiles(real, { "excl/AGENTS.md": "PRIV-EXCL-AGENTS\n", "excl/f.ts": "" });
    // The repository's exclude file names excl.md; a folder it names is private too.
    writeFiles(join(real, ".."), { ".git/info/exclude": "excl.md\nexcl/\n" });
    symlinkSync("ign", join(real, "lnk-ign"));
    for (const touched of [
      join(linked, "ign", "f.ts"),
      join(linked, ".hid", "f.ts"),
      join(linked, "excl", "f.ts"),
      join(linked, "lnk-ign", "f.ts"),
      join(real, "ign", "f.ts"),
    ]) {
      const got = await loadContextForPaths([touched], { ...base, cwd: linked });
      expect(got.files, touched).toEqual([]);
      expect(got.diagnostics.map((d) => d.code)).toContain("context-ignored");
    }
    const ok = await loadContextForPaths([join(linked, "ok", "f.ts")], { ...base, cwd: linked });
    expect(texts(ok.files)).toEqual(["OK-AGENTS"]);
  });

  it("loadRules and traceRules through the link read the root's rules and refuse the excluded one", async () => {
    const { linked, real, base } = layout();
    const viaLink = await loadRules({ ...base, cwd: linked });
    const direct = await loadRules({ ...base, cwd: real });
    expect(viaLink.rules.map((r) => r.content.trim())).toEqual(["ROOT-RULE", "SUB-RULE"]);
    expect(direct.rules.map((r) => r.content.trim())).toEqual(["ROOT-RULE", "SUB-RULE"]);
    const traced = await traceRules({ ...base, cwd: linked });
    const fates = traced.accounts.map((a) => `${a.path.split("/R/")[1]} ${a.fate.status}`);
    expect(fates).toContain(".cursor/rules/root.mdc inlined");
    expect(fates).toContain("sub/.cursor/rules/excl.md refused");
  });
});

describe("hostile-cwd-link-into-repository: config and named paths through the link", () => {
  it("no .pi folder: no config-refused warning through the link (rev57a F1)", async () => {
    const { linked, real, base } = layout();
    for (const cwd of [linked, real]) {
      const result = await renderSystemPrompt({
        ...base,
        cwd,
        projectTrusted: true,
        configFiles: true,
      });
      expect(result.diagnostics.filter((d) => d.code.startsWith("config-"))).toEqual([]);
    }
  });

  it("a .pi linked out of the working folder is still refused through the link (rev57a F1)", async () => {
    const { root, linked, real, base } = layout();
    writeFiles(root, { "elsewhere/sysprompt.yaml": "deadline: 900\n" });
    symlinkSync(join(root, "elsewhere"), join(real, ".pi"));
    const result = await renderSystemPrompt({
      ...base,
      cwd: linked,
      projectTrusted: true,
      configFiles: true,
    });
    expect(result.diagnostics.map((d) => d.code)).toContain("config-refused");
  });

  it("a project file named by its real absolute path is the working folder's file (rev57a F6)", async () => {
    const { real, linked, base } = layout();
    symlinkSync("ign.md", join(real, "notes.md"));
    const named = { ...base, appendSystemPrompt: join(real, "notes.md") };
    for (const cwd of [linked, real]) {
      const trusted = await renderSystemPrompt({ ...named, cwd, projectTrusted: true });
      expect(trusted.text).toContain("PRIV-IGN");
      await expect(renderSystemPrompt({ ...named, cwd })).rejects.toThrow(/ignored by git/);
    }
  });
});
