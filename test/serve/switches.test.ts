import { describe, expect, it } from "vitest";
import { applySwitches, parseSwitches, switchesOf } from "../../src/serve/_switches.js";

describe("the page's switches", () => {
  const ok = { tools: ["read"], model: null, tree: false, trusted: true };

  it("words a bad boolean with its option's check from the registry", () => {
    expect(parseSwitches({ ...ok, trusted: "no" })).toEqual({
      ok: false,
      error: "trusted: expected true or false",
    });
  });

  it("keeps the request's limits beyond the option's check", () => {
    expect(parseSwitches({ ...ok, tools: ["read", "read"] })).toEqual({
      ok: false,
      error: "tools: a name is listed twice",
    });
    expect(parseSwitches({ ...ok, model: "x".repeat(201) })).toEqual({
      ok: false,
      error: "model: expected null or a name of 1-200 characters",
    });
  });

  it("gives the switches in the page's order, whatever the body's", () => {
    const parsed = parseSwitches({ trusted: false, tree: true, model: "m", tools: [] });
    expect(parsed.ok && Object.keys(parsed.value)).toEqual(["tools", "model", "tree", "trusted"]);
  });

  it("maps each switch to its option, and a null model to none", () => {
    const base = { cwd: "/p", model: "old", git: true };
    const switched = applySwitches(base, {
      tools: ["bash"],
      model: null,
      tree: true,
      trusted: false,
    });
    expect(switched).toEqual({
      cwd: "/p",
      git: true,
      tools: ["bash"],
      workspaceTree: true,
      projectTrusted: false,
    });
    expect(switchesOf(switched)).toEqual({
      tools: ["bash"],
      model: null,
      tree: true,
      trusted: false,
    });
  });
});
