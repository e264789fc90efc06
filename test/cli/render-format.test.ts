import { describe, expect, it } from "vitest";
import { copyScenario } from "../api/_helpers.js";
import { cli, pinMachine, usageHint } from "./_run.js";

pinMachine();

const layered = () => copyScenario("cli", "project-with-layers");

describe("sysprompt render --format", () => {
  it("anthropic: the Messages API system array, a breakpoint on the stable block and on the session block", async () => {
    const root = layered();
    const { code, stdout, stderr } = await cli(root, ["render", "--format", "anthropic"]);
    expect([code, stderr]).toEqual([0, ""]);
    const text = (await cli(root, ["render"])).stdout;
    const system = JSON.parse(stdout) as { type: string; text: string }[];
    expect(system.map((b) => b.text).join("")).toBe(text);
    const stableEnd = text.indexOf("<environment>");
    expect(system).toEqual([
      { type: "text", text: text.slice(0, stableEnd), cache_control: { type: "ephemeral" } },
      { type: "text", text: text.slice(stableEnd), cache_control: { type: "ephemeral" } },
    ]);
    expect(system[0]?.text.endsWith("</cwd>\n\n")).toBe(true);
  });

  it("openai: one system message, stable content first; text is the default", async () => {
    const root = layered();
    const text = (await cli(root, ["render"])).stdout;
    expect((await cli(root, ["render", "--format", "text"])).stdout).toBe(text);
    const { code, stdout } = await cli(root, ["render", "--format", "openai"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ role: "system", content: text });
  });

  it("an unknown format, or one with --json or --section, is exit 2 with a clear message", async () => {
    const root = layered();
    expect(await cli(root, ["render", "--format", "gemini"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: --format: unknown format "gemini"; use text, anthropic or openai\n${usageHint("render")}`,
    });
    expect(await cli(root, ["render", "--format", "openai", "--json"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: --format openai prints JSON already; leave out --json\n${usageHint("render")}`,
    });
    expect(await cli(root, ["render", "--format", "anthropic", "--section", "rules"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: --format anthropic is for the whole prompt; leave out --section, or use --format text\n${usageHint("render")}`,
    });
  });
});
