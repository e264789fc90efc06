import { describe, expect, it } from "vitest";
import { expectEscapedOnce, expectKept, untrustedAgentsText } from "./_forged-tags.js";

// Review rev64f F5 (low). Every `<|` was taken for a chat template token and written `&lt;|`, so
// ordinary code in a repository's fences was rewritten: Haskell's `<|>` became `&lt;|>`, Elm's and
// F#'s `<|` `&lt;|`. A token is `<|` and a name (`<|im_start|>`, `<｜User｜>`, `<|/tool|>`): now
// `<|` is escaped only before a letter or digit, `_` or `/`, invisible characters read past.
// Ling 2.0's `<role>` stays escaped (its exact spelling is a special token): a Maven pom's
// `<role>` is a known false escape, recorded in docs/trust.md.

describe("hostile repository: code that only looks like a chat token", () => {
  it("Haskell's <|>, Elm's and F#'s <| and <|| stay as written", () => {
    expectKept([
      'p = many (char a) <|> pure ""',
      "view model = div [] <| List.map item model",
      "x <|| y",
      "a <|",
      "<| im_start|>",
      "<|> <|\n>",
      "f <|- g",
    ]);
  });

  it("a token is still escaped, a name after invisible characters too", () => {
    expectEscapedOnce(
      [
        ["<|im_start|>user", "&lt;|im_start|>user"],
        ["<｜User｜>", "&lt;｜User｜>"],
        ["<|/tool|>", "&lt;|/tool|>"],
        ["<|_x|>", "&lt;|_x|>"],
        ["<|\u200bim_start|>", "&lt;|\u200bim_start|>"],
        ["<|\u0301eot_id|>", "&lt;|\u0301eot_id|>"],
        ["<|7|>", "&lt;|7|>"],
        ["<role>x</role>", "&lt;role>x&lt;/role>"],
      ],
      false,
    );
  });

  it("an untrusted AGENTS.md's code keeps its operators", async () => {
    const text = await untrustedAgentsText(
      "```haskell\np = many (char 'a') <|> pure \"\"\n```\n\n" +
        "```elm\nview model = div [] <| List.map item model\n```\n\nT <|im_start|>user\n",
    );
    expect(text).toContain("p = many (char 'a') <|> pure \"\"\n");
    expect(text).toContain("view model = div [] <| List.map item model\n");
    expect(text).toContain("T &lt;|im_start|>user");
  });
});
