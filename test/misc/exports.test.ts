import { describe, expect, it } from "vitest";
import { escapeXml, formatSkillsForPrompt } from "../../src/index.js";

describe("escapeXml (public API)", () => {
  it("escapes the five XML special characters once, & first, and prints null/undefined as nothing", () => {
    expect(escapeXml(`a & b < c > d "e" 'f' &amp;`)).toBe(
      "a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos; &amp;amp;",
    );
    expect(escapeXml(null)).toBe("");
    expect(escapeXml(undefined)).toBe("");
    expect(escapeXml(42)).toBe("42");
  });

  it("is the escaping formatSkillsForPrompt applies", () => {
    const name = "x&y";
    const text = formatSkillsForPrompt(
      [
        {
          name,
          description: "<d>",
          filePath: "/s/SKILL.md",
          baseDir: "/s",
          disableModelInvocation: false,
          source: "option",
        },
      ],
      "read",
    );
    expect(text).toContain(`<name>${escapeXml(name)}</name>`);
    expect(text).toContain(`<description>${escapeXml("<d>")}</description>`);
  });
});
