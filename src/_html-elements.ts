/**
 * Every element name HTML knows, ASCII lower case: the HTML Standard's index of elements, its
 * obsolete and legacy ones, those a browser ships or trials (the permission elements
 * `permission`, `geolocation`, `usermedia`, `camera`, `microphone`; `fencedframe`, `portal`,
 * `model`, `install`; Chromium's `webview` and `controlledframe`), and `svg`, `math`. One list,
 * read by the draw-in-place reading of texts not yours (`drawsInPlace` in src/_prompt-text.ts: a
 * start tag of one not drawn in place is held) and by the closers (`drawsNothing` in
 * src/sections/html-reading.ts: an element of any other name left open draws nothing of its own).
 * Any other name is an unknown element to a browser (`HTMLUnknownElement`, inline, no style of
 * its own). Kept whole by test/browser/html-elements.browser.ts, which makes an element of every
 * `HTML…Element` interface the installed Chromium has and fails on one none of these names makes
 * (review rev89c F1: Chromium 156's `<camera>` and `<microphone>` were missing, kept as unknown
 * elements, and drew a button instead of your words).
 */
export const HTML_ELEMENTS: ReadonlySet<string> = new Set(
  (
    "html head title base link meta style body article section nav aside h1 h2 h3 h4 h5 h6 hgroup " +
    "header footer address p hr pre blockquote ol ul menu li dl dt dd figure figcaption main search " +
    "div a em strong small s cite q dfn abbr ruby rt rp data time code var samp kbd sub sup i b u " +
    "mark bdi bdo span br wbr ins del picture source img iframe embed object video audio track map " +
    "area table caption colgroup col tbody thead tfoot tr td th form label input button select " +
    "datalist optgroup option textarea output progress meter fieldset legend selectedcontent " +
    "details summary dialog script noscript template slot canvas svg math applet acronym bgsound " +
    "dir frame frameset noframes isindex keygen listing menuitem nextid noembed param plaintext rb " +
    "rtc strike xmp basefont big blink center font marquee multicol nobr spacer tt image layer " +
    "ilayer nolayer fencedframe portal permission geolocation model usermedia install camera " +
    "microphone webview controlledframe"
  ).split(" "),
);
