import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { explainPrompt } from "../../src/author/explain/explain.js";
import { renderScenarioFiles } from "../../src/author/snapshot/snapshot.js";
import { watchPrompt } from "../../src/author/watch/watch.js";
import { runStep } from "../../src/gather/deadline.js";
import { OPTIONS } from "../../src/options/registry.js";
import { type PreparedPrompt, preparePrompt } from "../../src/render-system-prompt.js";
import { resolveOptions } from "../../src/resolve-options.js";
import { SyspromptError } from "../../src/types.js";
import { pinned, tempDir } from "../api/_helpers.js";

/** A project with the user's sysprompt.yaml holding `user`. */
function world(user: string) {
  const root = tempDir();
  mkdirSync(join(root, "agent"), { recursive: true });
  writeFileSync(join(root, "agent", "sysprompt.yaml"), user);
  return { root, file: join(root, "agent", "sysprompt.yaml") };
}

describe("resolveOptions", () => {
  it("gives every option of the registry its origin: given, a config file (with its line), or the default", async () => {
    const { root, file } = world("tools: [read]\nmodel: from-file\nvars:\n  team: core\n");
    const resolved = await resolveOptions(
      pinned(root, { configFiles: true, model: "given" }),
      "cli",
    );
    expect(Object.keys(resolved.provenance)).toEqual(Object.keys(OPTIONS));
    expect(resolved.provenance.model).toEqual({ source: "cli" });
    expect(resolved.provenance.cwd).toEqual({ source: "cli" });
    expect(resolved.provenance.tools).toEqual({ source: "config", at: `user:${file}:1` });
    expect(resolved.provenance.vars).toEqual({ source: "config", at: `user:${file}:4` });
    expect(resolved.provenance.treeDepth).toEqual({ source: "default" });
    expect(resolved.provenance.deadlineMs).toEqual({ source: "default" });
    // The values: the given one beats the file's, the file's beats the default, defaults applied.
    expect(resolved.options.model).toBe("given");
    expect(resolved.options.tools).toEqual(["read"]);
    expect(resolved.options.vars).toEqual({ team: "core" });
    expect(resolved.normalized.tools).toEqual(["read"]);
    expect(resolved.normalized.deadlineMs).toBe(5000);
    expect(resolved.normalized.maxPromptTokens).toBeNull();
  });

  it("reads no file without configFiles, and says the caller gave what it gave (the API by default)", async () => {
    const { root } = world("model: from-file\n");
    const resolved = await resolveOptions(pinned(root, { treeDepth: 2 }));
    expect(resolved.options.model).toBeUndefined();
    expect(resolved.provenance.model).toEqual({ source: "default" });
    expect(resolved.provenance.treeDepth).toEqual({ source: "api" });
    expect(resolved.config.files).toEqual([]);
  });

  it("a bad given option throws before any file is read; a bad file value is a diagnostic", async () => {
    const { root, file } = world("tree-depth: 12\n");
    await expect(resolveOptions(pinned(root, { treeDepth: 12 }))).rejects.toThrow(
      new SyspromptError(
        "bad-option",
        "treeDepth: must be a whole number of levels from 1 to 8, such as 4, got 12",
      ),
    );
    const resolved = await resolveOptions(pinned(root, { configFiles: true }));
    expect(resolved.provenance.treeDepth).toEqual({ source: "default" });
    expect(resolved.config.diagnostics).toEqual([
      {
        level: "error",
        code: "config-bad-value",
        message:
          "tree-depth must be a whole number of levels from 1 to 8, such as 4, got 12 (as in `tree-depth: 4`); the key is ignored",
        path: file,
        line: 1,
      },
    ]);
  });
});

describe("who gave a render's options, as the render records it", () => {
  it("a scenario's render names the scenario; the CLI's the CLI; the library's the API", async () => {
    const { root, file } = world("model: from-file\n");
    const scenario = join(root, "a.scenario.yaml");
    writeFileSync(scenario, "tools: [read]\n");
    const origins = (await renderScenarioFiles(scenario, { sandboxDir: tempDir() })).origins;
    expect([origins?.tools, origins?.cwd, origins?.model]).toEqual([
      { source: "scenario" },
      { source: "scenario" },
      { source: "default" },
    ]);
    const api = await preparePrompt(pinned(root, { tools: ["read"], configFiles: true }));
    expect([api.origins?.tools, api.origins?.model]).toEqual([
      { source: "api" },
      { source: "config", at: `user:${file}:1` },
    ]);
    const cli = await preparePrompt(pinned(root, { tools: ["read"] }), runStep, "cli");
    expect(cli.origins?.tools).toEqual({ source: "cli" });
  });

  it("explain and watch record who gave the options, as a render does: the CLI passes cli", async () => {
    const { root, file } = world("model: from-file\n");
    const given = pinned(root, { tools: ["read"], configFiles: true });
    const tools = { option: "tools", key: "tools", value: "read" };
    const model = { option: "model", key: "model", value: "from-file" };
    expect((await explainPrompt(given, "cli")).settings).toContainEqual({
      ...tools,
      source: "cli",
    });
    const api = (await explainPrompt(given)).settings;
    expect(api).toContainEqual({ ...tools, source: "api" });
    expect(api).toContainEqual({ ...model, source: "config", at: `user:${file}:1` });
    // Only settings: the caller's wiring (env, home, machine) is never in the account.
    expect(api.map((s) => s.option)).toEqual([
      "cwd",
      "agentDir",
      "configFiles",
      "model",
      "tools",
      "now",
    ]);

    const controller = new AbortController();
    let origins: PreparedPrompt["origins"];
    const done = watchPrompt(
      given,
      {
        signal: controller.signal,
        onRender: (r) => {
          origins = r.prepared.origins;
          controller.abort();
        },
      },
      "cli",
    );
    await done;
    expect([origins?.tools, origins?.model]).toEqual([
      { source: "cli" },
      { source: "config", at: `user:${file}:1` },
    ]);
  });
});
