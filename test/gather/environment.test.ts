import { describe, expect, it } from "vitest";
import { detectEnvironment } from "../../src/gather/environment.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

describe("detectEnvironment", () => {
  it("names the OS and states the architecture, from the values given", () => {
    expect(detectEnvironment({ platform: "darwin", arch: "arm64" })).toEqual([
      { label: "Operating system", value: "macOS" },
      { label: "Architecture", value: "arm64" },
    ]);
    expect(detectEnvironment({ platform: "win32", arch: "x64" })[0]).toEqual({
      label: "Operating system",
      value: "Windows",
    });
    expect(detectEnvironment({ platform: "haiku", arch: "riscv64" })).toEqual([
      { label: "Operating system", value: "haiku" },
      { label: "Architecture", value: "riscv64" },
    ]);
  });
});

describe("the environment section", () => {
  it("the environment option replaces detection; the model comes last", async () => {
    const result = await renderSystemPrompt(
      pinned(tempDir(), {
        noContextFiles: true,
        environment: [
          { label: "Shell", value: "zsh" },
          { label: "Node", value: "20.19.0" },
        ],
        model: "model-x",
      }),
    );
    expect(result.sections.find((s) => s.name === "environment")?.text).toBe(
      "<environment>\n- Shell: zsh\n- Node: 20.19.0\n- Model: model-x\n</environment>",
    );
  });

  it("an empty environment and no model leaves the section out", async () => {
    const result = await renderSystemPrompt(
      pinned(tempDir(), { noContextFiles: true, environment: [] }),
    );
    expect(result.sections.map((s) => s.name)).toEqual([
      "preamble",
      "tools",
      "rules",
      "cwd",
      "date",
    ]);
  });
});
