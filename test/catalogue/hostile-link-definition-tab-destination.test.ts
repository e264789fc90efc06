import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import { expandPromptTemplateResult } from "../../src/prompt-templates/expand.js";
import { markdownAsHtml } from "../../src/sections/markdown-html.js";
import { commonmarkHtml } from "./_commonmark.js";

// fx101g (recorded in docs/trust.md): a link reference definition's destination our Markdown view
// read as a URL (its `<` text) where commonmark.js prints a live tag. commonmark.js reads the
// blanks around a link's destination and title with spaces only (its `spnl`, `reSpaceAtEndOfLine`):
// a tab after `[x]:`, before the line break that puts the destination on the next line or before
// the destination on the label's line, or after it, makes no definition, and the `<table>` or
// `<b>` there is raw HTML in a paragraph. markdown-it reads a definition there (text); our view
// read one too, so a project's slash template `[x]:\t<table>` printed a live `<table>` in the
// paragraph with no `</p>` before it, where a page without a doctype holds your words in the `<p>`.
// Now the blanks are read as commonmark.js reads them (`blanksFrom`, `spacesFrom` in
// src/sections/markdown-html.ts): what either renderer prints as a tag is one in our view. (The
// destination on the next line with no tab, `[x]:\n<div>` or `[x]:\n  <table>`, was already read as
// both renderers print it: an HTML block there ends the paragraph, checked below too.)

const SHAPES = [
  "[x]:\t\n<b>\n",
  "[x]: \t\n<template>\n",
  "[x]:\t \n  <s>\n",
  "[x]:\t<b>\n",
  "[x]: <b>\t\n",
  '[x]: <b>\t"t"\n',
  '[x]: <b> "t"\t\n',
  "a [l](\t<b>)\n",
  'a [l](<b>\t"t")\n',
  "> [x]:\t\n> <b>\n",
  "[x]:\n<div>\n",
  "[x]:\n  <table>\n",
];

/** Whether the first tag of `shape` is printed as a tag: by commonmark.js, and in our view. */
function live(shape: string): { commonmark: boolean; ours: boolean } {
  const name = /<[a-z]+/.exec(shape)?.[0] as string;
  return {
    commonmark: commonmarkHtml(shape).includes(name),
    ours: markdownAsHtml(shape).includes(name),
  };
}

describe("hostile text: a link destination commonmark.js does not read is markup in our view (fx101g)", () => {
  for (const shape of SHAPES)
    it(`${JSON.stringify(shape)}: a tag where commonmark.js prints one`, () => {
      const { commonmark, ours } = live(shape);
      expect(commonmark).toBe(true);
      expect(ours).toBe(true);
    });

  it("a destination with spaces only is still a URL (no tag to either)", () => {
    for (const shape of ["[x]:\n<b>\n", "[x]: <b>\n", "[x]:  \n   <b>  \n"])
      expect(live(shape)).toEqual({ commonmark: false, ours: false });
  });

  it("a project's slash template `[x]:\\t<table>`: a `</p>` before the live table", () => {
    const { text } = expandPromptTemplateResult("/x NEVER push to main", [
      { name: "x", content: "[x]:\t<table>\n$ARGUMENTS\n", source: "project" },
    ]);
    expect(text).toContain("</p><table>");
  });

  it("the closers keep and close a live `<b>` after `[x]:\\t`", () => {
    const closed = closeOpenBlocks("[x]:\t\n<b>\nmore\n");
    expect(closed).toMatch(/^\[x\]:\t\n<b>\nmore\n[\s\S]*<\/b>/);
  });
});
