import { describe, expect, it } from "vitest";
import { escapeWrapperTags, repositoryNames } from "../../src/_prompt-text.js";

// The page's start tags (rev80c F4-F8, hostile-page-wide-tags) are read as the prompt's names
// are, and a `<template>`'s attributes are read for a shadow root up to the next opener: each
// character is read a bounded number of times. A megabyte of them takes about a second on an
// idle machine (a quadratic reading would take hours); the bound leaves CI's margin.

describe("hostile repository: a megabyte of the page's start tags is read in linear time", () => {
  for (const unit of ['<template a="\u2039template ', "\u2039template ", "<body ", "`<style>` "])
    it(`${JSON.stringify(unit)} x 1 MB`, () => {
      const text = unit.repeat(Math.ceil(1_000_000 / unit.length));
      const started = performance.now();
      const out = escapeWrapperTags(text, repositoryNames());
      expect(performance.now() - started).toBeLessThan(10_000);
      // Each but the last (a tag no `>` ends is none) is written `&lt;`.
      expect(out.slice(0, 1000)).not.toContain(unit.startsWith("<t") ? '<template a="' : unit);
    });
});
