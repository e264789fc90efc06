// What one recorded model request holds, in the same shape for every API: where the system
// prompt lands, every text the model reads, and the tools it is offered.

/** The agent's turn requests: those that offer tools (a title or summary request offers none). */
export function turnRequests(requests) {
  return requests.filter((r) => r.route && r.route !== "count" && offeredTools(r.body).length > 0);
}

/**
 * Tool names offered in a request body, in order. Namespaced tools (Codex's code mode sends
 * `functions.exec`, `functions.wait`… in an `additional_tools` input item) are named by their
 * own name. Deferred tools (sent with `defer_loading`) are not offered: see `deferredTools`.
 */
export function offeredTools(body) {
  const names = [];
  const add = (tool) => {
    if (!tool || typeof tool !== "object") return;
    if (tool.defer_loading) return;
    if (Array.isArray(tool.functionDeclarations)) {
      for (const f of tool.functionDeclarations) names.push(f.name);
      return;
    }
    if (tool.type === "namespace" && Array.isArray(tool.tools)) {
      for (const t of tool.tools) add(t);
      return;
    }
    const name = tool.name ?? tool.function?.name ?? tool.type;
    if (name) names.push(name);
  };
  for (const t of body?.tools ?? []) add(t);
  for (const item of body?.input ?? []) {
    if (item?.type === "additional_tools") for (const t of item.tools ?? []) add(t);
  }
  return names;
}

/** Names of the tools the request lists as deferred (only their names; a search tool loads them). */
export function deferredTools(body) {
  const texts = messageTexts(body).join("\n");
  const m = /deferred tools are now available[^\n]*\n([\s\S]*?)<\/system-reminder>/.exec(texts);
  return m
    ? m[1]
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => /^[A-Za-z0-9_]+$/.test(l))
    : [];
}

/** The text parts of a content value (a string, or a list of parts of any of the APIs). */
function partsText(content) {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((p) => {
    if (typeof p === "string") return [p];
    if (typeof p?.text === "string") return [p.text];
    if (typeof p?.content === "string") return [p.content];
    if (Array.isArray(p?.content)) return partsText(p.content);
    if (p?.functionResponse) return [JSON.stringify(p.functionResponse.response)];
    return [];
  });
}

/**
 * The system prompt's place: `{ where, texts }`, where `where` names the field (as a record
 * states it) and `texts` are its text parts in order.
 */
export function systemParts(body) {
  if (Array.isArray(body?.system) || typeof body?.system === "string") {
    return { where: "system (Anthropic system blocks)", texts: partsText(body.system) };
  }
  if (body?.systemInstruction) {
    return { where: "systemInstruction (Gemini)", texts: partsText(body.systemInstruction.parts) };
  }
  if (typeof body?.instructions === "string") {
    return { where: "instructions (Responses)", texts: [body.instructions] };
  }
  const list = body?.messages ?? body?.input ?? [];
  const key = body?.messages ? "messages" : "input";
  const system = list.filter((m) => m?.role === "system" || m?.role === "developer");
  if (system.length > 0) {
    return {
      where: `${key}[role=${system[0].role}] (${system.length} message${system.length > 1 ? "s" : ""})`,
      texts: system.flatMap((m) => partsText(m.content)),
    };
  }
  return { where: "none", texts: [] };
}

/** The texts of every message (user, assistant, tool results), not the system prompt. */
export function messageTexts(body) {
  const list = body?.messages ?? body?.contents ?? body?.input ?? [];
  return list
    .filter((m) => m?.role !== "system" && m?.role !== "developer")
    .flatMap((m) => [
      ...partsText(m.content ?? m.parts),
      ...(typeof m?.output === "string" ? [m.output] : []),
    ]);
}

/** Everything the model reads in a request, as one text: the system prompt, then the messages. */
export function allText(body) {
  return [...systemParts(body).texts, ...messageTexts(body)].join("\n");
}
