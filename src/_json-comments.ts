/** `text` with `//` and `/* … *\/` comments outside strings blanked: one pass, linear. */
export function stripJsonComments(text: string): string {
  let out = "";
  let i = 0;
  let from = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
    } else if (c === "/" && text[i + 1] === "/") {
      out += text.slice(from, i);
      while (i < text.length && text[i] !== "\n") i++;
      from = i;
    } else if (c === "/" && text[i + 1] === "*") {
      out += text.slice(from, i);
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 2;
      from = i;
      out += " ";
    } else i++;
  }
  return out + text.slice(from);
}
