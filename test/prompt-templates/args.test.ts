import { describe, expect, it } from "vitest";
import { parseCommandArgs } from "../../src/prompt-templates/index.js";

describe("parseCommandArgs", () => {
  it.each([
    ["", []],
    ["   \t\n ", []],
    ["one", ["one"]],
    ["a b  c", ["a", "b", "c"]],
    ["a\tb\nc\r\nd", ["a", "b", "c", "d"]],
    ["  leading and trailing  ", ["leading", "and", "trailing"]],
  ])("separates %j on whitespace outside quotes", (text, expected) => {
    expect(parseCommandArgs(text)).toEqual(expected);
  });

  it("reads an apostrophe inside a word as an ordinary character", () => {
    expect(parseCommandArgs("don't stop")).toEqual(["don't", "stop"]);
    expect(parseCommandArgs("it's Bob's \"fault\"")).toEqual(["it's", "Bob's", "fault"]);
    expect(parseCommandArgs('say"hi there"')).toEqual(['say"hi', 'there"']);
  });

  it("keeps whitespace inside double and single quotes", () => {
    expect(parseCommandArgs(`"a b" 'c  d' "line\none"`)).toEqual(["a b", "c  d", "line\none"]);
  });

  it("reads the other quote character inside a quote literally", () => {
    expect(parseCommandArgs(`"it's" 'say "x"'`)).toEqual(["it's", 'say "x"']);
  });

  it("turns a backslash before the closing quote character into that character", () => {
    expect(parseCommandArgs('"say \\"hi\\""')).toEqual(['say "hi"']);
    expect(parseCommandArgs("'it\\'s'")).toEqual(["it's"]);
  });

  it("keeps every other backslash", () => {
    expect(parseCommandArgs('"C:\\path\\to" a\\b \'x\\"y\'')).toEqual([
      "C:\\path\\to",
      "a\\b",
      'x\\"y',
    ]);
    expect(parseCommandArgs('\\"a b\\"')).toEqual(['\\"a', 'b\\"']);
  });

  it("continues the argument after the closing quote", () => {
    expect(parseCommandArgs('"a"b')).toEqual(["ab"]);
    expect(parseCommandArgs("'a b'c d")).toEqual(["a bc", "d"]);
  });

  it("does not open a second quote in the middle of an argument", () => {
    expect(parseCommandArgs('"a""b c"')).toEqual(['a"b', 'c"']);
  });

  it("keeps quoted empty strings as arguments", () => {
    expect(parseCommandArgs('"" x')).toEqual(["", "x"]);
    expect(parseCommandArgs("x ''")).toEqual(["x", ""]);
    expect(parseCommandArgs(`"" ''`)).toEqual(["", ""]);
  });

  it("reads a quote that never closes as text and the rest normally", () => {
    expect(parseCommandArgs("'a b' 'c")).toEqual(["a b", "'c"]);
    expect(parseCommandArgs('"a b')).toEqual(['"a', "b"]);
    expect(parseCommandArgs('x "')).toEqual(["x", '"']);
    expect(parseCommandArgs('"a \\" b')).toEqual(['"a', '\\"', "b"]);
  });

  it("lets an unclosed quote's rest open a quote of its own", () => {
    expect(parseCommandArgs(`'a "b c"`)).toEqual(["'a", "b c"]);
  });
});
