import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { createViewAnswers, MAX_UNSENT_VIEW_BYTES } from "../../src/serve/_http.js";

/** A connection, and a request on it whose answer is `status` once sent. */
function connection() {
  const socket = Object.assign(new EventEmitter(), {
    destroyed: false,
    destroy() {
      socket.destroyed = true;
      socket.emit("close");
    },
  });
  const request = () => {
    const res = Object.assign(new EventEmitter(), {
      status: 0,
      body: undefined as Buffer | string | undefined,
      setHeader() {},
      writeHead(status: number) {
        res.status = status;
      },
      end(body: Buffer | string) {
        res.body = body;
      },
    });
    const req = { socket } as unknown as IncomingMessage;
    return { req, res, asRes: res as unknown as ServerResponse };
  };
  return { socket, request };
}

describe("createViewAnswers: views sent and not yet taken", () => {
  it("sends the one view's bytes, no copy, and counts them until the answer is taken", () => {
    const answers = createViewAnswers();
    const view = Buffer.from('{"count":1}');
    const { req, res, asRes } = connection().request();
    answers.send(req, asRes, view);
    expect(res.status).toBe(200);
    expect(res.body).toBe(view);
    expect(answers.unsent).toBe(view.length);
    res.emit("finish");
    expect(answers.unsent).toBe(0);
  });

  it("closes a connection that asks again before it took its last view", () => {
    const answers = createViewAnswers();
    const view = Buffer.alloc(1000);
    const conn = connection();
    const first = conn.request();
    answers.send(first.req, first.asRes, view);
    const second = conn.request();
    answers.send(second.req, second.asRes, view);
    expect(conn.socket.destroyed).toBe(true);
    expect(second.res.status).toBe(0);
    expect(answers.unsent).toBe(0);
    // Taken, a connection asks again as often as it likes.
    const other = connection();
    for (let i = 0; i < 3; i++) {
      const next = other.request();
      answers.send(next.req, next.asRes, view);
      expect(next.res.status).toBe(200);
      next.res.emit("finish");
    }
  });

  it("past the cap of bytes not yet taken answers 503, but one view always goes", () => {
    const answers = createViewAnswers(2500);
    const view = Buffer.alloc(1000);
    const sent = [1, 2, 3].map(() => {
      const { req, res, asRes } = connection().request();
      answers.send(req, asRes, view);
      return res;
    });
    expect(sent.map((r) => r.status)).toEqual([200, 200, 503]);
    sent[0]?.emit("close");
    const { req, res, asRes } = connection().request();
    answers.send(req, asRes, view);
    expect(res.status).toBe(200);

    const alone = createViewAnswers(10);
    const big = connection().request();
    alone.send(big.req, big.asRes, view);
    expect(big.res.status).toBe(200);
    expect(MAX_UNSENT_VIEW_BYTES).toBe(64 * 1024 * 1024);
  });
});
