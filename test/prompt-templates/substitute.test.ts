// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` is the placeholder syntax under test, not a forgotten template literal.
import { describe, expect, it } from "vitest";
import { substituteArgs } from "../../src/prompt-templates/index.js";

describe("substituteArgs", () => {
  const args = ["one", "two", "three"];

  it("replaces $N with that argument, reading all the digits", () => {
    const many = Array.from({ length: 12 }, (_, i) => `a${i + 1}`);
    expect(substituteArgs("$1 $2 $3", args)).toEqual("one two three");
    expect(substituteArgs("$10 $12 $1x", many)).toEqual("a10 a12 a1x");
  });

  it("replaces $0 and missing arguments with nothing", () => {
    expect(substituteArgs("[$0] [$4] [$99999999999999999999]", args)).toEqual("[] [] []");
  });

  it("replaces $@ and $ARGUMENTS with all arguments joined by one space", () => {
    expect(substituteArgs("$@|$ARGUMENTS", ["a b", "c"])).toEqual("a b c|a b c");
    expect(substituteArgs("[$@] [$ARGUMENTS]", [])).toEqual("[] []");
  });

  it("uses a default when the value is missing or empty", () => {
    expect(substituteArgs("${1:-x} ${4:-four} ${0:-zero}", args)).toEqual("one four zero");
    expect(substituteArgs("${2:-empty}", ["a", ""])).toEqual("empty");
    expect(substituteArgs("${@:-none} ${ARGUMENTS:-none}", [])).toEqual("none none");
    expect(substituteArgs("${@:-none}", [""])).toEqual("none");
    expect(substituteArgs("${@:-none}", args)).toEqual("one two three");
    expect(substituteArgs("${1:-}", [])).toEqual("");
    expect(substituteArgs("${1:-multi\nline default}", [])).toEqual("multi\nline default");
  });

  it("slices the arguments with ${@:N} and ${@:N:L}, 1-based", () => {
    const five = ["a", "b", "c", "d", "e"];
    expect(substituteArgs("${@:2}", five)).toEqual("b c d e");
    expect(substituteArgs("${@:2:2}", five)).toEqual("b c");
    expect(substituteArgs("${@:0}|${@:1}", five)).toEqual("a b c d e|a b c d e");
    expect(substituteArgs("${@:0:2}", five)).toEqual("a b");
    expect(substituteArgs("[${@:5:0}] [${@:9}] [${@:4:10}]", five)).toEqual("[] [] [d e]");
  });

  it("is case-sensitive about names", () => {
    expect(substituteArgs("$arguments ${arguments:-x} $Arguments", args)).toEqual(
      "$arguments ${arguments:-x} $Arguments",
    );
  });

  it("leaves every other $ text as it is", () => {
    expect(
      substituteArgs("$ $$ $x ${1} ${ARGUMENTS} ${@} ${@:} ${@:a} ${1:-x $5 costs $", args),
    ).toEqual("$ $$ $x ${1} ${ARGUMENTS} ${@} ${@:} ${@:a} ${1:-x  costs $");
  });

  it("has no escape: a backslash before $ stays and the placeholder is still replaced", () => {
    expect(substituteArgs("\\$1", args)).toEqual("\\one");
  });

  it("never substitutes inside an argument value or a default", () => {
    expect(substituteArgs("$1 $2", ["$2", "$1"])).toEqual("$2 $1");
    expect(substituteArgs("${3:-$1} $@", ["${@:1}", "$ARGUMENTS"])).toEqual("$1 ${@:1} $ARGUMENTS");
  });
});
