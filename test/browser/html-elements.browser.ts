// The element lists against the installed browser (review rev89c F1, F2): Chromium 156 had
// `<camera>` and `<microphone>`, drawn as a button and none of their content, which neither the
// list of names HTML knows (`HTML_ELEMENTS`, src/_html-elements.ts) nor the hiding list
// (`NEVER_SHOWN`, read through `wrapperHides`, src/sections/html-reading.ts) had; a text not yours
// kept them as unknown elements and the closers read them as shown. A browser update that adds an
// element of its own, or one that hides its text, turns this red instead of leaking your words.
import { existsSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HTML_ELEMENTS } from "../../src/_html-elements.js";
import { wrapperHides } from "../../src/sections/html-reading.js";

const CHROMIUM = process.env.SYSPROMPT_CHROMIUM ?? "/usr/bin/chromium";

let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no browser at ${CHROMIUM}: apt-get install -y chromium (or set SYSPROMPT_CHROMIUM)`,
    );
  }
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.setContent("<!doctype html><html><body><div id=c></div></body></html>");
});

afterAll(async () => {
  await browser?.close();
});

// Run in the page (a string: this project's TypeScript has no DOM types). `NAMES` is HTML_ELEMENTS.
const INTERFACES_MISSING = `(() => {
  const made = NAMES.map((n) => document.createElement(n));
  const out = [];
  for (const key of Object.getOwnPropertyNames(window)) {
    if (!/^HTML\\w*Element$/.test(key) || key === "HTMLElement" || key === "HTMLUnknownElement") continue;
    const ctor = window[key];
    if (typeof ctor !== "function") continue;
    if (made.some((e) => e instanceof ctor)) continue;
    // Its name, guessed from the interface's (\`HTMLCameraElement\` is \`<camera>\`).
    const guess = key.slice(4, -7).toLowerCase();
    out.push(document.createElement(guess) instanceof ctor ? guess : key + " (name unknown)");
  }
  return out;
})()`;

const TEXT_HIDDEN_IN = `(() => {
  const box = document.getElementById("c");
  const out = [];
  for (const n of NAMES) {
    box.innerHTML = "<section_x>\\n<" + n + ">\\nTXTMARK words here\\n</" + n + ">\\n</section_x><p>after</p>";
    const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    let text = null;
    for (let t = walk.nextNode(); t; t = walk.nextNode())
      if (t.data.includes("TXTMARK")) { text = t; break; }
    // In no text node drawn (a <template>'s content): hidden.
    if (text === null) { out.push(n); continue; }
    const range = document.createRange();
    const at = text.data.indexOf("TXTMARK");
    range.setStart(text, at);
    range.setEnd(text, at + 7);
    text.parentElement.scrollIntoView({ block: "center" });
    const r = range.getBoundingClientRect();
    if (r.width * r.height === 0) { out.push(n); continue; }
    const hit = document.elementFromPoint(r.left + Math.min(r.width, 20) / 2, r.top + r.height / 2);
    const parent = text.parentElement;
    if (!hit || !(hit === parent || parent.contains(hit) || hit.contains(parent))) out.push(n);
  }
  box.innerHTML = "";
  return out;
})()`;

const withNames = (script: string) =>
  `(() => { const NAMES = ${JSON.stringify([...HTML_ELEMENTS])}; return ${script}; })()`;

describe("the element lists hold every element of the installed Chromium (rev89c F1, F2)", () => {
  it("every HTML…Element interface on window is made by a name of HTML_ELEMENTS", async () => {
    const missing = await page.evaluate<string[]>(withNames(INTERFACES_MISSING));
    expect(missing, "add these to HTML_ELEMENTS in src/_html-elements.ts").toEqual([]);
  });

  it("every name of HTML_ELEMENTS that hides a text put in it is read as hiding (wrapperHides)", async () => {
    const hiding = await page.evaluate<string[]>(withNames(TEXT_HIDDEN_IN));
    const unread = hiding.filter((n) => !wrapperHides(n));
    expect(unread, "add these to NEVER_SHOWN in src/sections/html-reading.ts").toEqual([]);
    // The scan works: the elements the hiding list names are found hiding here.
    expect(hiding).toEqual(expect.arrayContaining(["template", "select", "camera", "option"]));
  });
});
