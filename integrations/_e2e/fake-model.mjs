// The fake model: one HTTP server on 127.0.0.1 that answers every model API the four agents use
// and records each request it gets.
//
//   Anthropic Messages        POST …/v1/messages                (Claude Code; SSE when stream: true)
//   OpenAI Responses          POST …/responses                  (Codex, opencode with GPT models; SSE)
//   OpenAI Chat Completions   POST …/chat/completions           (opencode's openai-compatible provider)
//   Gemini                    POST …/models/M:generateContent, :streamGenerateContent (?alt=sse), :countTokens
//
// Anything else is recorded and answered 404 with a JSON error, so an agent that asks for more
// (a model list, a token count of another API) fails fast instead of waiting.
//
// The script: by default every answer is the text "ok". `script` is a list of replies, each
// `{ "text": "…" }` or `{ "toolCall": { "name": "Read", "arguments": { … } } }`; each request that
// offers tools (the agent's turn, not a side request such as a title or a summary) takes the next
// one, and once the list is used up the answers are "ok" again. The tool names and arguments are
// the agent's own (see README.md, "The script"). From the command line:
//
//   node fake-model.mjs --port 0 --log requests.jsonl --script '[{"toolCall":{…}},{"text":"done"}]'
//
// prints `listening <port>` and appends one JSON line per request to the log.

import { appendFileSync } from "node:fs";
import { createServer } from "node:http";

/** The model name every answer carries. */
const MODEL = "fake-model";

/** Whether a request body offers the model tools, in any of the four APIs' shapes. */
export function offersTools(body) {
  const tools = body?.tools;
  if (!Array.isArray(tools) || tools.length === 0) return false;
  // Gemini: [{ functionDeclarations: [...] }]; the others: one entry per tool.
  return tools.some((t) => !t.functionDeclarations || t.functionDeclarations.length > 0);
}

/**
 * Starts the fake model. Resolves with `{ port, requests, script, close }`: `requests` grows by one
 * `{ n, method, url, headers, bytes, body, reply }` per request; push to `script` to queue replies.
 */
export function startFakeModel({ port = 0, log, script = [] } = {}) {
  const requests = [];
  const queue = [...script];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      let body = null;
      try {
        body = raw.length > 0 ? JSON.parse(raw.toString("utf8")) : null;
      } catch {
        body = { unparsed: raw.toString("utf8").slice(0, 2000) };
      }
      const url = req.url ?? "";
      const route = routeOf(req.method ?? "", url);
      const reply =
        route && route !== "count" && offersTools(body) && queue.length > 0
          ? queue.shift()
          : { text: "ok" };
      const record = {
        n: requests.length + 1,
        method: req.method,
        url,
        route,
        headers: pickHeaders(req.headers),
        bytes: raw.length,
        body,
        reply: route && route !== "count" ? reply : null,
      };
      requests.push(record);
      if (log) appendFileSync(log, `${JSON.stringify(record)}\n`);
      answer(route, record, reply, body, res);
    });
  });
  return new Promise((resolveStart, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () =>
      resolveStart({
        port: server.address().port,
        requests,
        script: queue,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    );
  });
}

/** Which API a request speaks; undefined: none we answer. */
function routeOf(method, url) {
  if (method !== "POST") return undefined;
  const path = url.split("?")[0];
  if (path.endsWith("/v1/messages") || path.endsWith("/messages")) return "anthropic";
  if (path.endsWith("/responses")) return "responses";
  if (path.endsWith("/chat/completions")) return "chat";
  if (path.endsWith(":streamGenerateContent")) return "gemini-stream";
  if (path.endsWith(":generateContent")) return "gemini";
  if (path.endsWith(":countTokens") || path.endsWith("/count_tokens")) return "count";
  return undefined;
}

/** Headers worth keeping: which client, which API version; never a key (there are none, but still). */
function pickHeaders(headers) {
  const keep = {};
  for (const [k, v] of Object.entries(headers)) {
    if (/authorization|api-key|cookie/i.test(k)) continue;
    keep[k] = v;
  }
  return keep;
}

function answer(route, record, reply, body, res) {
  const json = (status, value) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(value));
  };
  if (route === undefined) {
    json(404, {
      error: { type: "not_found_error", message: `no route for ${record.method} ${record.url}` },
    });
    return;
  }
  if (route === "count") {
    json(200, { totalTokens: 10, input_tokens: 10 });
    return;
  }
  const id = `e2e-${record.n}`;
  const call = reply.toolCall;
  const text = reply.text ?? "ok";
  if (route === "anthropic") return anthropic(res, body, id, call, text, json);
  if (route === "responses") return responses(res, id, call, text);
  if (route === "chat") return chat(res, body, id, call, text, json);
  return gemini(res, route === "gemini-stream", call, text, json);
}

function sse(res) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  return (event, data) =>
    res.write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
}

function anthropic(res, body, id, call, text, json) {
  const usage = { input_tokens: 10, output_tokens: 1 };
  const content = call
    ? [{ type: "tool_use", id: `toolu_${id}`, name: call.name, input: call.arguments ?? {} }]
    : [{ type: "text", text }];
  const stop = call ? "tool_use" : "end_turn";
  const message = { id: `msg_${id}`, type: "message", role: "assistant", model: MODEL };
  if (!body?.stream) {
    json(200, { ...message, content, stop_reason: stop, stop_sequence: null, usage });
    return;
  }
  const send = sse(res);
  send("message_start", {
    type: "message_start",
    message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage },
  });
  if (call) {
    send("content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id: `toolu_${id}`, name: call.name, input: {} },
    });
    send("content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(call.arguments ?? {}) },
    });
  } else {
    send("content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    });
    send("content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text },
    });
  }
  send("content_block_stop", { type: "content_block_stop", index: 0 });
  send("message_delta", {
    type: "message_delta",
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: 1 },
  });
  send("message_stop", { type: "message_stop" });
  res.end();
}

function responses(res, id, call, text) {
  const item = call
    ? {
        type: "function_call",
        id: `fc_${id}`,
        call_id: `call_${id}`,
        name: call.name,
        arguments: JSON.stringify(call.arguments ?? {}),
        status: "completed",
      }
    : {
        type: "message",
        id: `msg_${id}`,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text, annotations: [] }],
      };
  const response = {
    id: `resp_${id}`,
    object: "response",
    created_at: 0,
    model: MODEL,
    status: "in_progress",
    output: [],
  };
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 1,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 11,
  };
  const send = sse(res);
  send("response.created", { type: "response.created", sequence_number: 0, response });
  send("response.output_item.added", {
    type: "response.output_item.added",
    sequence_number: 1,
    output_index: 0,
    item: call ? { ...item, arguments: "", status: "in_progress" } : { ...item, content: [] },
  });
  if (!call) {
    send("response.output_text.delta", {
      type: "response.output_text.delta",
      sequence_number: 2,
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta: text,
    });
  }
  send("response.output_item.done", {
    type: "response.output_item.done",
    sequence_number: 3,
    output_index: 0,
    item,
  });
  send("response.completed", {
    type: "response.completed",
    sequence_number: 4,
    response: { ...response, status: "completed", output: [item], usage },
  });
  res.end();
}

function chat(res, body, id, call, text, json) {
  const usage = { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 };
  const toolCalls = call
    ? [
        {
          index: 0,
          id: `call_${id}`,
          type: "function",
          function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
        },
      ]
    : undefined;
  const finish = call ? "tool_calls" : "stop";
  if (!body?.stream) {
    const message = call
      ? { role: "assistant", content: null, tool_calls: toolCalls }
      : { role: "assistant", content: text };
    json(200, {
      id,
      object: "chat.completion",
      created: 0,
      model: MODEL,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    });
    return;
  }
  const send = sse(res);
  const chunk = (choice, extra = {}) =>
    send(undefined, {
      id,
      object: "chat.completion.chunk",
      created: 0,
      model: MODEL,
      choices: [choice],
      ...extra,
    });
  chunk({
    index: 0,
    delta: call
      ? { role: "assistant", tool_calls: toolCalls }
      : { role: "assistant", content: text },
    finish_reason: null,
  });
  chunk({ index: 0, delta: {}, finish_reason: finish }, { usage });
  res.end("data: [DONE]\n\n");
}

function gemini(res, stream, call, text, json) {
  const parts = call
    ? [{ functionCall: { name: call.name, args: call.arguments ?? {} } }]
    : [{ text }];
  const answerBody = {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 1, totalTokenCount: 11 },
    modelVersion: MODEL,
  };
  if (!stream) {
    json(200, answerBody);
    return;
  }
  sse(res)(undefined, answerBody);
  res.end();
}

// The command line: a server that runs until killed.
if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name) => {
    const i = process.argv.indexOf(`--${name}`);
    return i === -1 ? undefined : process.argv[i + 1];
  };
  const started = await startFakeModel({
    port: Number(arg("port") ?? 0),
    log: arg("log"),
    script: arg("script") ? JSON.parse(arg("script")) : [],
  });
  console.log(`listening ${started.port}`);
}
