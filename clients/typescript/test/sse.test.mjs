// The SSE parser, fed the way a network feeds it: any chunk boundary, CRLF or LF, comments.
import assert from "node:assert/strict";
import { test } from "node:test";
import { SseParser } from "@melee/client";

const STREAM = ": keep-alive\r\n\r\nid: 4\r\nevent: entry\r\ndata: {\"seq\":4,\r\ndata: \"x\":1}\r\n\r\nevent: reconnect\ndata:\n\n";

test("every split of a stream gives the same events", () => {
  const whole = new SseParser().feed(STREAM);
  assert.deepEqual(whole, [
    { event: "entry", data: '{"seq":4,\n"x":1}', id: "4" },
    { event: "reconnect", data: "", id: "4" },
  ]);
  for (let cut = 1; cut < STREAM.length; cut++) {
    const parser = new SseParser();
    assert.deepEqual([...parser.feed(STREAM.slice(0, cut)), ...parser.feed(STREAM.slice(cut))], whole, `cut at ${cut}`);
  }
});

test("a block with no data dispatches nothing; a field without a colon is a field with no value", () => {
  assert.deepEqual(new SseParser().feed("event: entry\n\ndata\n\n"), [{ event: "message", data: "", id: "" }]);
});
