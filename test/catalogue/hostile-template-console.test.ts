import { afterEach, describe, expect, it, vi } from "vitest";
import { createEngine } from "../../src/engine/index.js";

// A template that names a property its data only inherits ({{valueOf}},
// {{tools.map}}) gets nothing, as Handlebars' prototype access control
// says; but Handlebars also printed three lines to the console for each
// such name, from inside the library (only src/cli/ prints): attack review
// 11 found a project section of five names printing fifteen lines to stderr
// on every render, and into pi's screen from the extension. The names are
// refused without a word now.

describe("hostile repository: a template that reads inherited properties", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("gets nothing, and nothing is printed", () => {
    const printed = vi.fn();
    for (const method of ["error", "warn", "info", "log", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation(printed);
    }
    // Names no other test reads: Handlebars prints each name once a process.
    const out = createEngine().render(
      "[{{tools.copyWithin}}{{cwd.localeCompare}}{{propertyIsEnumerable}}{{tools.length}}]",
      { tools: ["read"], cwd: "/p" },
    );
    expect(out).toBe("[1]");
    expect(printed).not.toHaveBeenCalled();
  });
});
