// The sysprompt inspector page: plain DOM, no framework. Every render arrives
// as one JSON view over server-sent events; the page redraws from it. Text
// from the prompt only ever goes into textContent, never into HTML.

const $ = (id) => document.getElementById(id);
const fmt = new Intl.NumberFormat("en-US");

/** An element with attributes (`class`, `data-*`, `title`…) and children (nodes or strings). */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "style") Object.assign(el.style, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return el;
}

let view = null;
let switching = false;

/**
 * The token in the address `sysprompt serve` printed: every request for the
 * prompt carries it (a header on fetch; the event stream, which cannot send
 * headers, in its query). Without it the server answers 403.
 */
const token = new URLSearchParams(location.search).get("token") ?? "";

/** Says `text` in the banner, as a problem. */
function notice(...parts) {
  const banner = $("banner");
  banner.dataset.kind = "error";
  banner.replaceChildren(...parts);
  banner.hidden = false;
}

const mib = (bytes) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/** A path relative to the working folder when inside it; a builtin file from `prompts/`. */
function showPath(path, layer) {
  if (!path) return layer === "option" ? "from code / command line" : "";
  const cwd = view?.cwd ?? "";
  if (cwd && path.startsWith(`${cwd}/`)) return path.slice(cwd.length + 1);
  if (layer === "builtin") {
    const at = path.lastIndexOf("/prompts/");
    if (at >= 0) return path.slice(at + 1);
  }
  return path;
}

function where(d) {
  if (!d.path) return "";
  let out = showPath(d.path);
  if (d.line !== undefined) out += `:${d.line}`;
  if (d.line !== undefined && d.column !== undefined) out += `:${d.column}`;
  return out;
}

const tokens = (n) => `${fmt.format(n)} ${n === 1 ? "token" : "tokens"}`;

function drawHeader() {
  $("cwd").textContent = view.cwd;
  $("cwd").title = "working folder";
  $("render-info").textContent = `render #${view.count} · ${view.ms.toFixed(0)} ms`;
}

function drawSwitches() {
  const list = $("tool-list");
  const selected = new Set(view.switches.tools);
  list.replaceChildren(
    ...view.tools.map((name) =>
      h(
        "label",
        { class: "tool" },
        h("input", { type: "checkbox", value: name, checked: selected.has(name) }),
        name,
      ),
    ),
  );
  const model = $("model");
  if (document.activeElement !== model) model.value = view.switches.model ?? "";
  $("tree").checked = view.switches.tree;
  $("trusted").checked = view.switches.trusted;
}

function drawBanner() {
  const banner = $("banner");
  const changed = view.sections.filter((s) => s.status !== "same");
  const parts = [];
  if (view.error) {
    banner.dataset.kind = "error";
    banner.replaceChildren(
      h("strong", {}, "Could not re-render: "),
      view.error,
      " — showing the last good render.",
    );
    banner.hidden = false;
    return;
  }
  if (view.cause.kind === "start") {
    banner.hidden = true;
    return;
  }
  if (view.cause.kind === "files") {
    const files = view.cause.files.map((f) => showPath(f));
    parts.push(h("strong", {}, files.length ? files.join(", ") : "a watched folder"), " changed");
  } else parts.push(h("strong", {}, "Options switched"));
  const names = changed.map((s) => `${s.name}${s.status === "added" ? " (new)" : ""}`);
  const removed = view.removed.map((n) => `${n} (removed)`);
  const all = [...names, ...removed];
  parts.push(
    all.length
      ? ` → ${all.length} ${all.length === 1 ? "section" : "sections"} changed: ${all.join(", ")}`
      : " → no section changed",
  );
  banner.dataset.kind = all.length ? "change" : "same";
  banner.replaceChildren(...parts);
  banner.hidden = false;
}

function drawTokens() {
  const { total, stablePrefix: prefix, sections } = view;
  $("tokenizer").textContent = `${view.tokenizer} estimate`;
  $("total").replaceChildren(
    h("strong", {}, tokens(total.tokens)),
    ` in ${total.sections} sections · ${fmt.format(total.bytes)} bytes`,
    h("br"),
    h("span", { class: "prefix-note" }, "cache-stable prefix: "),
    h("strong", {}, tokens(prefix.tokens)),
    prefix.firstVolatile ? ` (before ${prefix.firstVolatile})` : " (every section is stable)",
  );
  const sum = Math.max(
    1,
    sections.reduce((n, s) => n + s.tokens, 0),
  );
  const stack = $("stack");
  stack.replaceChildren(
    ...sections.map((s) =>
      h("span", {
        class: `seg layer-${s.layer}${s.status !== "same" ? " is-changed" : ""}`,
        title: `${s.name}: ${tokens(s.tokens)}`,
        style: { flexGrow: String(s.tokens) },
      }),
    ),
  );
  const stableTokens = sections.slice(0, prefix.sections).reduce((n, s) => n + s.tokens, 0);
  if (prefix.firstVolatile) {
    stack.append(
      h("span", {
        class: "prefix-mark",
        style: { left: `${(100 * stableTokens) / sum}%` },
        title: `cache-stable prefix: ${tokens(prefix.tokens)}`,
      }),
    );
  }
  const max = Math.max(1, ...sections.map((s) => s.tokens));
  const rows = [];
  sections.forEach((s, i) => {
    if (i === prefix.sections && prefix.firstVolatile) {
      rows.push(
        h("li", { class: "prefix-row" }, `▲ cache-stable prefix · ${tokens(prefix.tokens)}`),
      );
    }
    rows.push(
      h(
        "li",
        {
          class: `bar-row layer-${s.layer}${s.status !== "same" ? " is-changed" : ""}`,
          "data-name": s.name,
          "data-tokens": s.tokens,
        },
        h("a", { href: `#section-${s.name}`, class: "bar-name" }, s.name),
        h(
          "span",
          { class: "bar-track" },
          h("span", { class: "bar", style: { width: `${(100 * s.tokens) / max}%` } }),
        ),
        h("span", { class: "bar-tokens" }, fmt.format(s.tokens)),
      ),
    );
  });
  $("bars").replaceChildren(...rows);
}

/** The diagnostic's file:line:column, a link to the section it is about when there is one. */
function whereLink(d) {
  const section = view.sections.find((s) => s.failed?.path === d.path || s.path === d.path);
  const text = h("code", {}, where(d));
  return section
    ? h("a", { class: "where", href: `#section-${section.name}` }, text)
    : h("span", { class: "where" }, text);
}

function drawDiagnostics() {
  const list = $("diagnostics");
  const levels = { error: 0, warning: 1, info: 2 };
  const sorted = [...view.diagnostics].sort((a, b) => levels[a.level] - levels[b.level]);
  const counts = ["error", "warning", "info"]
    .map((l) => [l, view.diagnostics.filter((d) => d.level === l).length])
    .filter(([, n]) => n > 0)
    .map(([l, n]) => `${n} ${l}${n === 1 ? "" : "s"}`);
  $("diag-count").textContent = counts.length ? counts.join(" · ") : "none";
  list.replaceChildren(
    ...sorted.map((d) =>
      h(
        "li",
        { class: `diag level-${d.level}` },
        h("span", { class: "level" }, d.level),
        h("code", { class: "code" }, d.code),
        d.path ? whereLink(d) : null,
        h("p", { class: "message" }, d.message),
      ),
    ),
  );
  if (sorted.length === 0) list.append(h("li", { class: "empty" }, "No problems found."));
}

function drawSteps() {
  $("steps").replaceChildren(
    h("tr", {}, h("th", {}, "step"), h("th", {}, "status"), h("th", { class: "num" }, "ms")),
    ...view.steps.map((s) =>
      h(
        "tr",
        { class: `step status-${s.status}` },
        h("td", {}, s.name),
        h("td", {}, h("span", { class: "pill" }, s.status)),
        h("td", { class: "num" }, s.ms.toFixed(1)),
      ),
    ),
  );
}

/** The section's text, or its word diff against the previous render. */
function sectionBody(s) {
  if (!s.diff) return h("pre", { class: "text" }, s.text);
  return h(
    "pre",
    { class: "text" },
    ...s.diff.map(([op, text]) => (op === "=" ? text : h(op === "+" ? "ins" : "del", {}, text))),
  );
}

function drawPrompt() {
  const { sections, stablePrefix: prefix } = view;
  const blocks = [];
  sections.forEach((s, i) => {
    if (i === prefix.sections && prefix.firstVolatile) {
      blocks.push(
        h(
          "div",
          { class: "prefix-divider" },
          h("span", {}, `cache-stable prefix ends here · ${tokens(prefix.tokens)} above`),
        ),
      );
    }
    const badges = [h("span", { class: `badge layer layer-${s.layer}` }, s.layer)];
    if (s.volatile) badges.push(h("span", { class: "badge volatile" }, "volatile"));
    if (s.status === "changed") badges.push(h("span", { class: "badge changed" }, "changed"));
    if (s.status === "added") badges.push(h("span", { class: "badge added" }, "new"));
    if (s.failed) badges.push(h("span", { class: "badge failed" }, "fallback"));
    blocks.push(
      h(
        "article",
        {
          class: `section layer-${s.layer} status-${s.status}${s.failed ? " has-failed" : ""}`,
          id: `section-${s.name}`,
          "data-name": s.name,
        },
        h(
          "header",
          {},
          h("span", { class: "name" }, s.name),
          ...badges,
          h("code", { class: "file", title: s.path ?? "" }, showPath(s.path, s.layer)),
          h("span", { class: "size" }, `${tokens(s.tokens)} · ${fmt.format(s.bytes)} B`),
        ),
        s.failed
          ? h(
              "p",
              { class: "failed-note" },
              `${showPath(s.failed.path, s.failed.layer)} (${s.failed.layer}) failed to render; the ${s.layer} version below stands in (see Diagnostics).`,
            )
          : null,
        sectionBody(s),
      ),
    );
  });
  for (const name of view.removed) {
    blocks.push(h("p", { class: "removed-note" }, `Section ${name} was removed.`));
  }
  $("prompt").replaceChildren(...blocks);
}

function drawData() {
  $("data").textContent = JSON.stringify(view.data, null, 2);
}

function draw(next) {
  view = next;
  drawHeader();
  drawSwitches();
  drawBanner();
  drawTokens();
  drawDiagnostics();
  drawSteps();
  drawPrompt();
  drawData();
  document.body.dataset.render = String(view.count);
}

function currentSwitches() {
  const tools = [...document.querySelectorAll("#tool-list input:checked")].map((i) => i.value);
  const model = $("model").value.trim();
  return {
    tools,
    model: model === "" ? null : model,
    tree: $("tree").checked,
    trusted: $("trusted").checked,
  };
}

async function sendSwitches() {
  if (switching) return;
  switching = true;
  const status = $("switch-status");
  status.dataset.kind = "busy";
  status.textContent = "rendering…";
  try {
    const res = await fetch("/api/options", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Sysprompt-Token": token },
      body: JSON.stringify(currentSwitches()),
    });
    const body = await res.json();
    if (!res.ok) throw new Error(body.error ?? res.statusText);
    status.dataset.kind = "ok";
    status.textContent = "";
    draw(body);
  } catch (error) {
    status.dataset.kind = "error";
    status.textContent = error.message;
    if (view) drawSwitches();
  } finally {
    switching = false;
  }
}

function connect() {
  const state = $("status");
  if (!token) {
    state.dataset.state = "down";
    state.textContent = "no token";
    notice(
      h("strong", {}, "This address has no token: "),
      "open the one sysprompt serve printed (it ends with ?token=…).",
    );
    return;
  }
  const events = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
  events.addEventListener("open", () => {
    state.dataset.state = "live";
    state.textContent = "live";
  });
  events.addEventListener("render", (event) => {
    state.dataset.state = "live";
    state.textContent = "live";
    const next = JSON.parse(event.data);
    if (!view || next.count !== view.count) draw(next);
  });
  // A view larger than the server sends live: said, and the stream stays open for the next one.
  events.addEventListener("too-large", (event) => {
    state.dataset.state = "live";
    state.textContent = "live";
    const { count, bytes, limit } = JSON.parse(event.data);
    // A switch made on this page answered with that view itself, whatever its size.
    if (view && view.count >= count) return;
    notice(
      h("strong", {}, `Render #${count} is not shown: `),
      `its view is ${mib(bytes)}, more than the ${mib(limit)} the page is sent live`,
      view ? ` (render #${view.count} is shown below)` : "",
      ". sysprompt render or explain shows that prompt.",
    );
  });
  events.addEventListener("error", () => {
    state.dataset.state = "down";
    // Refused (a wrong token, a server started again with a new one, or 16 streams open): the
    // browser stops trying.
    if (events.readyState === EventSource.CLOSED) {
      state.textContent = "disconnected";
      notice(
        h("strong", {}, "The inspector refused this page's live updates: "),
        "open the address sysprompt serve printed last (its token changes at every start), or close other tabs of it and reload.",
      );
    } else state.textContent = "reconnecting…";
  });
}

$("switches").addEventListener("change", (event) => {
  if (event.target.id !== "model") void sendSwitches();
});
$("model").addEventListener("change", () => void sendSwitches());
$("switches").addEventListener("submit", (event) => {
  event.preventDefault();
  void sendSwitches();
});
connect();
