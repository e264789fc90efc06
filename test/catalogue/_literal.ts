/**
 * A forged tag as the prompt prints it: its `<` written `&lt;`, and so is a
 * symbol that is not ASCII directly after it or after its `/` (`<∕rules>`,
 * `</⠀rules>`): read alone, such a symbol opens a tag of its own, so it is
 * made literal too, and escaping the text again changes nothing (review rev56b F2).
 */
export function literalTag(tag: string): string {
  return `&lt;${tag.slice(1).replace(/^(\/?)(?=\P{ASCII})\p{S}/u, "$1&lt;")}`;
}
