var __defProp = Object.defineProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// ../../clients/typescript/dist/errors.js
var MeleeProblem = class _MeleeProblem extends Error {
  status;
  type;
  title;
  detail;
  errors;
  instance;
  /** Seconds the server asked to wait (Retry-After), when it said. */
  retryAfter;
  /** The language `title` and `detail` are in (the answer's Content-Language: `en`, `fr`, `pt-BR`), when it said. */
  language;
  /** The Idempotency-Key the failed request carried: retry the same logical action with it. */
  idempotencyKey;
  /** The whole problem document, with its extension members (`current_version`...). */
  body;
  constructor(init) {
    super(init.detail ?? init.title ?? `HTTP ${init.status}`);
    this.name = "MeleeProblem";
    this.status = init.status;
    this.type = init.type ?? "about:blank";
    this.title = init.title ?? `HTTP ${init.status}`;
    if (init.detail !== void 0)
      this.detail = init.detail;
    if (init.errors !== void 0)
      this.errors = init.errors;
    if (init.instance !== void 0)
      this.instance = init.instance;
    if (init.retryAfter !== void 0)
      this.retryAfter = init.retryAfter;
    if (init.language !== void 0)
      this.language = init.language;
    if (init.idempotencyKey !== void 0)
      this.idempotencyKey = init.idempotencyKey;
    this.body = init.body ?? {};
  }
  /** Whether this is the problem of that kind: `is("precondition-failed")`. */
  is(kind) {
    return this.type === kind || this.type.endsWith(`/problems/${kind}`);
  }
  /** A 412's `current_version`: the version the combat is at now (reload, decide again). */
  get currentVersion() {
    const version = this.body["current_version"];
    return typeof version === "number" ? version : void 0;
  }
  /** The problem of a non-2xx answer (a body that is not a problem document still gives one). */
  static async fromResponse(response) {
    let body = {};
    try {
      const parsed = JSON.parse(await response.text());
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
        body = parsed;
    } catch {
    }
    const text = (name) => typeof body[name] === "string" ? body[name] : void 0;
    const init = {
      status: response.status,
      type: text("type") ?? "about:blank",
      title: text("title") ?? (response.statusText || `HTTP ${response.status}`),
      body
    };
    const detail = text("detail");
    if (detail !== void 0)
      init.detail = detail;
    const instance = text("instance");
    if (instance !== void 0)
      init.instance = instance;
    if (Array.isArray(body["errors"])) {
      init.errors = body["errors"].map((item) => {
        const field = item && typeof item === "object" ? item : {};
        const message = typeof field["message"] === "string" ? field["message"] : typeof field["detail"] === "string" ? field["detail"] : "";
        const error = { ...field, message };
        if (typeof field["pointer"] === "string")
          error.pointer = field["pointer"];
        return error;
      });
    }
    const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
    if (retryAfter !== void 0)
      init.retryAfter = retryAfter;
    const language = response.headers.get("Content-Language");
    if (language)
      init.language = language;
    return new _MeleeProblem(init);
  }
};
var MeleeNetworkError = class extends Error {
  /** The Idempotency-Key the request carried: retry the same logical action with it. */
  idempotencyKey;
  constructor(message, options) {
    super(message, options);
    this.name = "MeleeNetworkError";
  }
};
function parseRetryAfter(value) {
  if (value === null || value.trim() === "")
    return void 0;
  const seconds = Number(value);
  if (Number.isFinite(seconds))
    return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? void 0 : Math.max(0, (date - Date.now()) / 1e3);
}

// ../../clients/typescript/dist/sse.js
var SseParser = class {
  buffer = "";
  event = "";
  data = [];
  lastId = "";
  /** Feeds a chunk; returns the events it completes, in order. */
  feed(chunk) {
    this.buffer += chunk;
    const events = [];
    for (; ; ) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match || match[0] === "\r" && match.index === this.buffer.length - 1)
        break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.line(line);
      if (event)
        events.push(event);
    }
    return events;
  }
  line(line) {
    if (line === "") {
      if (this.data.length === 0) {
        this.event = "";
        return null;
      }
      const event = { event: this.event || "message", data: this.data.join("\n"), id: this.lastId };
      this.event = "";
      this.data = [];
      return event;
    }
    if (line.startsWith(":"))
      return null;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" "))
      value = value.slice(1);
    if (field === "event")
      this.event = value;
    else if (field === "data")
      this.data.push(value);
    else if (field === "id" && !value.includes("\0"))
      this.lastId = value;
    return null;
  }
};

// ../../clients/typescript/dist/client.js
var MAX_STREAM_FAILURES = 3;
function newIdempotencyKey() {
  const webCrypto = globalThis.crypto;
  if (typeof webCrypto?.randomUUID === "function")
    return webCrypto.randomUUID();
  const bytes = webCrypto.getRandomValues(new Uint8Array(16));
  bytes[6] = bytes[6] & 15 | 64;
  bytes[8] = bytes[8] & 63 | 128;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
function isRetryable(error, policy) {
  if (error instanceof MeleeNetworkError)
    return policy.keyed;
  if (!(error instanceof MeleeProblem))
    return false;
  if (error.status === 429)
    return true;
  if (error.status === 503)
    return policy.keyed || error.is("store-unavailable");
  if (error.status === 409) {
    if (error.is("request-in-flight"))
      return policy.keyed;
    if (error.is("version-conflict"))
      return !policy.conditional;
  }
  return false;
}
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted)
      return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", aborted, { once: true });
  });
}
function etag(version) {
  const text = String(version);
  return /^\d+$/.test(text) ? `"${text}"` : text;
}
var segment = encodeURIComponent;
var MeleeClient = class _MeleeClient {
  baseUrl;
  token;
  config;
  fetchImpl;
  /** Token -> actor, learnt from creations: shared by every client derived with withToken. */
  actors;
  constructor(options, actors) {
    if (!options.baseUrl)
      throw new TypeError("MeleeClient: baseUrl is required");
    this.config = { ...options };
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.token = options.token;
    this.actors = actors ?? /* @__PURE__ */ new Map();
    const chosen = options.fetch ?? globalThis.fetch;
    if (typeof chosen !== "function")
      throw new TypeError("MeleeClient: no fetch here; pass options.fetch");
    this.fetchImpl = (input, init) => chosen(input, init);
  }
  /** The same client acting with another token (a player's, the GM's). */
  withToken(token) {
    return new _MeleeClient({ ...this.config, token }, this.actors);
  }
  /** Who this client's token acts for, when a creation through this client (or its family) said: an id or "gm". */
  get actor() {
    return this.token === void 0 ? void 0 : this.actors.get(this.token);
  }
  // -- rulesets --------------------------------------------------------------------------
  rulesets() {
    return this.read({ method: "GET", path: "/rulesets" });
  }
  ruleset(id) {
    return this.read({ method: "GET", path: `/rulesets/${segment(id)}` });
  }
  // -- combats ---------------------------------------------------------------------------
  /** Creates a combat (with a fresh Idempotency-Key, reused on retries); the answer holds every token, once. */
  async createCombat(body, o = {}) {
    const key = o.idempotencyKey ?? newIdempotencyKey();
    const created = await this.keyed({ method: "POST", path: "/combats", body, headers: { "Idempotency-Key": key }, signal: o.signal }, key, { keyed: true });
    const tokens = created.tokens;
    if (tokens) {
      this.actors.set(tokens.gm, "gm");
      for (const [actor, token] of Object.entries(tokens.combatants))
        this.actors.set(token, actor);
    }
    return created;
  }
  combat(id, o = {}) {
    return this.read({ method: "GET", path: `/combats/${segment(id)}`, signal: o.signal });
  }
  /** Deletes a combat (GM). */
  async deleteCombat(id) {
    await this.request({ method: "DELETE", path: `/combats/${segment(id)}` });
  }
  /**
   * Sends one logical action: a fresh Idempotency-Key (or `o.idempotencyKey`), the same on each retry,
   * so it is applied once. Retried with jittered exponential backoff (and Retry-After): no answer, 503
   * (`outcome-unknown`, `store-unavailable`), 429, 409 `request-in-flight`, and 409 `version-conflict`
   * unless `ifMatch` is set. A 412 (with `ifMatch`: the combat moved on) is thrown at once: reload
   * (`error.currentVersion`), decide again, send with the new version. Other problems are final.
   */
  act(id, action, o = {}) {
    const key = o.idempotencyKey ?? newIdempotencyKey();
    const headers = { "Idempotency-Key": key };
    if (o.ifMatch !== void 0)
      headers["If-Match"] = etag(o.ifMatch);
    return this.keyed({ method: "POST", path: `/combats/${segment(id)}/actions`, body: action, headers, signal: o.signal }, key, { keyed: true, conditional: o.ifMatch !== void 0 });
  }
  /** What `actor` may send now (default: this token's combatant when known, else "gm"); `options<R>` types it. */
  options(id, o = {}) {
    const actor = o.actor ?? this.actor ?? "gm";
    return this.read({ method: "GET", path: `/combats/${segment(id)}/options`, query: { actor }, signal: o.signal });
  }
  /** The odds of a proposed action (nothing is applied). */
  odds(id, action, more = {}) {
    return this.read({ method: "POST", path: `/combats/${segment(id)}/odds`, body: { ...more, action } });
  }
  /** Undoes the last action (GM). Not retried after no answer: read the combat to see whether it happened. */
  undo(id, o = {}) {
    return this.history("undo", id, o);
  }
  redo(id, o = {}) {
    return this.history("redo", id, o);
  }
  history(which, id, o) {
    const headers = {};
    if (o.ifMatch !== void 0)
      headers["If-Match"] = etag(o.ifMatch);
    const call = { method: "POST", path: `/combats/${segment(id)}/${which}`, headers };
    return this.retrying(() => this.request(call), { keyed: false, conditional: o.ifMatch !== void 0 });
  }
  /** Mints a token (GM): a player's for one combatant (`{ role: "player", combatant }`) or another GM's. */
  async mintToken(id, request) {
    const minted = await this.request({ method: "POST", path: `/combats/${segment(id)}/tokens`, body: request });
    this.actors.set(minted.token, minted.combatant ?? "gm");
    return minted;
  }
  /** The combat's tokens (GM): each one's public id, role and combatant, never the token itself. */
  tokens(id) {
    return this.read({ method: "GET", path: `/combats/${segment(id)}/tokens` });
  }
  /** Revokes a token by its public id (`tokens(id)`), GM: it stops working at once. */
  async revokeToken(id, tokenId) {
    await this.request({ method: "DELETE", path: `/combats/${segment(id)}/tokens/${segment(tokenId)}` });
  }
  // -- snapshots -------------------------------------------------------------------------
  /** The combat sealed in one opaque string (GM token only): keep it to restore the fight later. */
  async snapshot(id) {
    const answer = await this.read({ method: "GET", path: `/combats/${segment(id)}/snapshot` });
    return answer.snapshot;
  }
  /**
   * Brings a snapshot back under its own id (the original tokens keep working): a 409 while that id is live.
   * Sent with an Idempotency-Key (fresh, or `o.idempotencyKey`), the same on its retries, and with `o.token`
   * (one of the combat's tokens; default: this client's) as the bearer. The answer is the combat as that
   * token sees it, or only `{ id, ruleset, version }` (no token of the combat: `combat(id)` reads it).
   */
  restore(snapshot, o = {}) {
    const key = o.idempotencyKey ?? newIdempotencyKey();
    const body = { snapshot };
    const headers = { "Idempotency-Key": key };
    if (o.token)
      headers["Authorization"] = `Bearer ${o.token}`;
    return this.keyed({ method: "POST", path: "/combats", body, headers, signal: o.signal }, key, { keyed: true });
  }
  // -- the log ---------------------------------------------------------------------------
  /** A page of the log after `after`; with `wait` (seconds, up to 25) a long poll. */
  events(id, o = {}) {
    const query = { after: o.after, wait: o.wait, limit: o.limit };
    return this.read({ method: "GET", path: `/combats/${segment(id)}/events`, query, signal: o.signal });
  }
  /**
   * Follows the log live: SSE read with fetch (so the token goes in Authorization), resumed with
   * Last-Event-ID after a drop or the server's `reconnect`; the long poll `GET /events?wait=` when
   * streaming is unavailable (no readable body, 429/503 on the stream, repeated failures).
   * Each entry is delivered once, in order. A `reset` event (or, polling, a log that went back)
   * calls onReset and delivers the log again from its first entry.
   */
  subscribe(id, handlers, o = {}) {
    const controller = new AbortController();
    const close = () => controller.abort();
    if (o.signal?.aborted)
      close();
    o.signal?.addEventListener("abort", close, { once: true });
    const follower = new Follower(this, id, handlers, o, controller.signal);
    follower.run().catch((error) => {
      if (!controller.signal.aborted)
        handlers.onError?.(error);
    });
    return { close };
  }
  /** @internal The stream request (used by subscribe). */
  openStream(id, after, signal) {
    const headers = { Accept: "text/event-stream" };
    if (after > 0)
      headers["Last-Event-ID"] = String(after);
    return this.send({ method: "GET", path: `/combats/${segment(id)}/stream`, query: { after }, headers, signal });
  }
  /** @internal A backoff for attempt n (0-based): equal jitter, at least Retry-After. */
  backoff(attempt, error) {
    const base = this.config.retryBaseMs ?? 250;
    const cap = this.config.retryMaxMs ?? 8e3;
    const ceiling = Math.min(cap, base * 2 ** attempt);
    const retryAfter = error instanceof MeleeProblem && error.retryAfter !== void 0 ? error.retryAfter * 1e3 : 0;
    return Math.max(retryAfter, ceiling / 2) + Math.random() * (ceiling / 2);
  }
  // -- the transport ---------------------------------------------------------------------
  read(call) {
    return this.retrying(() => this.request(call), { keyed: true }, call.signal);
  }
  async keyed(call, key, policy) {
    try {
      return await this.retrying(() => this.request(call), policy, call.signal);
    } catch (error) {
      if (error instanceof MeleeProblem || error instanceof MeleeNetworkError)
        error.idempotencyKey = key;
      throw error;
    }
  }
  async retrying(attempt, policy, signal) {
    const retries = this.config.retries ?? 4;
    for (let n = 0; ; n++) {
      try {
        return await attempt();
      } catch (error) {
        if (n >= retries || !isRetryable(error, policy) || signal?.aborted)
          throw error;
        await sleep(this.backoff(n, error), signal);
      }
    }
  }
  /** One request: its JSON answer, or a MeleeProblem / MeleeNetworkError. */
  async request(call) {
    const response = await this.send(call);
    if (response.status === 204)
      return void 0;
    let text;
    try {
      text = await response.text();
    } catch (error) {
      if (call.signal?.aborted)
        throw error;
      throw new MeleeNetworkError(`${call.method} ${call.path}: the answer was cut off`, { cause: error });
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new MeleeNetworkError(`${call.method} ${call.path}: the answer is not JSON`, { cause: error });
    }
  }
  /** The fetch itself: a non-2xx answer is thrown as its MeleeProblem. */
  async send(call) {
    const url = new URL(this.baseUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== void 0)
        url.searchParams.set(name, String(value));
    }
    const headers = { Accept: "application/json", ...call.headers };
    if (call.body !== void 0)
      headers["Content-Type"] = "application/json";
    if (this.token && !headers["Authorization"])
      headers["Authorization"] = `Bearer ${this.token}`;
    if (this.config.apiKey)
      headers["X-API-Key"] = this.config.apiKey;
    if (this.config.lang)
      headers["Accept-Language"] = this.config.lang;
    const init = { method: call.method, headers };
    if (call.body !== void 0)
      init.body = JSON.stringify(call.body);
    if (call.signal)
      init.signal = call.signal;
    let response;
    try {
      response = await this.fetchImpl(url, init);
    } catch (error) {
      if (call.signal?.aborted)
        throw error;
      throw new MeleeNetworkError(`${call.method} ${call.path}: no answer (${String(error)})`, { cause: error });
    }
    if (!response.ok)
      throw await MeleeProblem.fromResponse(response);
    return response;
  }
};
var Follower = class {
  client;
  id;
  handlers;
  o;
  signal;
  cursor = 0;
  mode;
  failures = 0;
  constructor(client, id, handlers, o, signal) {
    this.client = client;
    this.id = id;
    this.handlers = handlers;
    this.o = o;
    this.signal = signal;
    this.mode = o.transport === "poll" ? "poll" : "stream";
  }
  async run() {
    if (this.o.after !== null)
      this.cursor = this.o.after ?? 0;
    else
      this.cursor = (await this.client.events(this.id, { after: 0, limit: 1, signal: this.signal })).last_seq;
    this.status(this.mode);
    while (!this.signal.aborted) {
      try {
        if (this.mode === "stream")
          await this.stream();
        else
          await this.poll();
      } catch (error) {
        if (this.signal.aborted)
          return;
        if (!this.transient(error))
          throw error;
        this.failures += 1;
        if (this.mode === "stream" && this.o.transport !== "stream" && this.failures >= MAX_STREAM_FAILURES) {
          this.fallBack();
          continue;
        }
        this.status("reconnecting");
        await sleep(this.client.backoff(Math.min(this.failures, 6), error), this.signal).catch(() => void 0);
        if (!this.signal.aborted)
          this.status(this.mode);
      }
    }
  }
  status(status) {
    this.handlers.onStatus?.(status);
  }
  fallBack() {
    this.mode = "poll";
    this.failures = 0;
    this.status("poll");
  }
  transient(error) {
    if (error instanceof MeleeNetworkError)
      return true;
    if (error instanceof MeleeProblem)
      return error.status === 429 || error.status === 503;
    return error instanceof TypeError;
  }
  async deliver(entry) {
    if (entry.seq <= this.cursor)
      return;
    this.cursor = entry.seq;
    this.failures = 0;
    try {
      await this.handlers.onEntry(entry);
    } catch (error) {
      this.handlers.onError?.(error);
    }
  }
  reset() {
    this.cursor = 0;
    this.handlers.onReset?.();
  }
  /** One stream connection, read to its end. */
  async stream() {
    let response;
    try {
      response = await this.client.openStream(this.id, this.cursor, this.signal);
    } catch (error) {
      if (error instanceof MeleeProblem && (error.status === 429 || error.status === 503) && this.o.transport !== "stream") {
        this.fallBack();
        return;
      }
      throw error;
    }
    const type = response.headers.get("Content-Type") ?? "";
    if (!response.body || !type.includes("text/event-stream")) {
      await response.body?.cancel().catch(() => void 0);
      if (this.o.transport === "stream")
        throw new MeleeNetworkError("the stream is not an event stream here");
      this.fallBack();
      return;
    }
    this.failures = 0;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new SseParser();
    try {
      for (; ; ) {
        const { value, done } = await reader.read();
        if (done)
          throw new MeleeNetworkError("the stream ended");
        for (const event of parser.feed(value)) {
          if (event.event === "entry") {
            await this.deliver(JSON.parse(event.data));
          } else if (event.event === "reconnect") {
            return;
          } else if (event.event === "reset") {
            this.reset();
            return;
          } else if (event.event === "gone" || event.event === "revoked") {
            throw new MeleeProblem({
              status: event.event === "gone" ? 404 : 401,
              type: `/problems/${event.event === "gone" ? "not-found" : "token-revoked"}`,
              title: event.event === "gone" ? "Combat gone" : "Token revoked",
              detail: event.data || (event.event === "gone" ? "the combat was deleted or expired" : "this token was revoked")
            });
          }
        }
      }
    } finally {
      reader.cancel().catch(() => void 0);
    }
  }
  /** One long poll, and the pages after it. */
  async poll() {
    const wait = Math.min(25, Math.max(1, this.o.wait ?? 20));
    const page = await this.client.events(this.id, { after: this.cursor, wait, limit: 200, signal: this.signal });
    if (page.last_seq < this.cursor) {
      this.reset();
      return;
    }
    for (const entry of page.items)
      await this.deliver(entry);
    this.failures = 0;
  }
};

// ../../clients/typescript/dist/generated/rulesets.js
var RULESET_IDS = ["age-du-silicium", "dark-earth", "duel-2d6", "sistema-2d6", "space-opera-d100"];

// src/foundry.ts
function presetUrl(g) {
  const flags = g.game.modules.get("melee")?.flags;
  const url = flags?.melee?.url;
  return typeof url === "string" && url !== "" ? url : null;
}
function registerSettings(g) {
  const settings = g.game.settings;
  settings.register("melee", "url", {
    name: "MELEE.Settings.url.name",
    hint: "MELEE.Settings.url.hint",
    scope: "world",
    config: true,
    type: String,
    default: presetUrl(g) ?? "http://localhost:8000"
  });
  settings.register("melee", "apiKey", {
    name: "MELEE.Settings.apiKey.name",
    hint: "MELEE.Settings.apiKey.hint",
    scope: "client",
    config: g.game.user?.isGM ?? false,
    type: String,
    default: ""
  });
  settings.register("melee", "ruleset", {
    name: "MELEE.Settings.ruleset.name",
    hint: "MELEE.Settings.ruleset.hint",
    scope: "world",
    config: true,
    type: String,
    choices: Object.fromEntries(RULESET_IDS.map((id) => [id, id])),
    default: "sistema-2d6"
  });
  settings.register("melee", "mapping", {
    name: "MELEE.Settings.mapping.name",
    hint: "MELEE.Settings.mapping.hint",
    scope: "world",
    config: true,
    type: String,
    default: ""
  });
  settings.register("melee", "health", {
    name: "MELEE.Settings.health.name",
    hint: "MELEE.Settings.health.hint",
    scope: "world",
    config: true,
    type: String,
    default: ""
  });
  settings.register("melee", "keyPair", { scope: "client", config: false, type: String, default: "" });
  settings.register("melee", "snapshots", { scope: "client", config: false, type: String, default: "{}" });
}
function onActorMenu(g, label, open2) {
  const hook = "getActorContextOptions";
  const addEntry = (_app, entries) => {
    entries.push({
      name: label,
      icon: '<i class="fa-solid fa-user-pen"></i>',
      condition: () => g.game.user?.isGM ?? false,
      callback: (li) => {
        const id = li.dataset.entryId;
        if (id) open2(id);
      }
    });
  };
  g.Hooks.on(hook, addEntry);
}
function foundryHost(g) {
  const game = g.game;
  const toUser = (u) => ({
    id: u.id ?? "",
    name: u.name ?? "",
    isGM: u.isGM,
    active: u.active,
    publicKey: u.getFlag("melee", "publicKey") ?? null
  });
  const toActor = (a) => ({
    id: a.id ?? "",
    name: a.name ?? "",
    statuses: [...a.statuses],
    system: a.system,
    sheet: a.getFlag("melee", "sheet") ?? null,
    ownerIds: game.users.filter((u) => !u.isGM && a.testUserPermission(u, "OWNER")).map((u) => u.id ?? "")
  });
  const actorOf = (c, combatantId) => {
    const actor = c.combatants.get(combatantId)?.actor;
    if (!actor) throw new Error(`melee: combatant ${combatantId} has no actor`);
    return actor;
  };
  const toCombat = (c) => ({
    id: c.id ?? "",
    // Read anew each time: the actors' data and statuses change during the fight.
    get combatants() {
      return c.combatants.contents.map(
        (cb) => ({
          id: cb.id ?? "",
          name: cb.name ?? "",
          actor: cb.actor ? toActor(cb.actor) : null,
          disposition: cb.token?.disposition ?? null
        })
      );
    },
    state: () => c.getFlag("melee", "state") ?? null,
    setState: async (state) => {
      await c.setFlag("melee", "state", state);
    },
    setTurn: async (combatantId, round) => {
      const index = combatantId === null ? -1 : c.turns.findIndex((t) => t.id === combatantId);
      const turn = index === -1 ? c.turn : index;
      if (turn !== c.turn || round !== c.round) await c.update({ turn, round });
    },
    updateActor: async (combatantId, data) => {
      await actorOf(c, combatantId).update(data);
    },
    setStatus: async (combatantId, statusId2, active) => {
      await actorOf(c, combatantId).toggleStatusEffect(statusId2, { active });
    }
  });
  const me = () => {
    const user = game.user;
    if (!user) throw new Error("melee: no user yet");
    return user;
  };
  return {
    user: () => toUser(me()),
    users: () => game.users.contents.map(toUser),
    setting: (key) => game.settings.get("melee", key),
    setSetting: async (key, value) => {
      await game.settings.set("melee", key, value);
    },
    currentCombat: () => game.combat ? toCombat(game.combat) : null,
    actor: (id) => {
      const actor = game.actors.get(id);
      return actor ? toActor(actor) : null;
    },
    setActorSheet: async (id, sheet) => {
      const actor = game.actors.get(id);
      if (!actor) return;
      if (sheet === null) await actor.unsetFlag("melee", "sheet");
      else await actor.setFlag("melee", "sheet", sheet);
    },
    addStatusEffects: (effects) => {
      const known = new Set(g.CONFIG.statusEffects.map((e) => e.id));
      for (const effect of effects) if (!known.has(effect.id)) g.CONFIG.statusEffects.push({ ...effect });
    },
    combats: () => game.combats.contents.map(toCombat),
    lang: () => game.i18n.lang,
    localize: (key, data) => data ? game.i18n.format(key, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]))) : game.i18n.localize(key),
    has: (key) => game.i18n.has(key),
    notify: (level, message) => {
      g.ui.notifications?.[level](message);
    },
    chat: async (content, whisperToGMs = false) => {
      await g.ChatMessage.create({
        content,
        speaker: { alias: "Melee" },
        whisper: whisperToGMs ? game.users.filter((u) => u.isGM).map((u) => u.id ?? "") : []
      });
    },
    choose: async (title, content, buttons) => {
      const picked = await g.foundry.applications.api.DialogV2.wait({
        window: { title },
        content,
        buttons: buttons.map((b) => ({ action: b.action, label: b.label })),
        rejectClose: false
      });
      return typeof picked === "string" ? picked : null;
    },
    form: async (title, content, fields, submit) => {
      const values = await g.foundry.applications.api.DialogV2.wait({
        window: { title },
        content,
        buttons: [
          {
            action: "submit",
            label: submit,
            default: true,
            callback: (_event, button) => {
              const read = {};
              for (const field of fields) {
                const input = button.form?.elements.namedItem(field.name);
                read[field.name] = input?.value ?? "";
              }
              return read;
            }
          }
        ],
        rejectClose: false
      });
      return values !== null && typeof values === "object" ? values : null;
    },
    mapActor: (context) => g.Hooks.call("melee.mapActor", context),
    onCombatChanged: (callback) => {
      g.Hooks.on("updateCombat", (combat, changed) => {
        if (g.foundry.utils.hasProperty(changed, "flags.melee")) callback(toCombat(combat));
      });
    },
    onUserChanged: (callback) => {
      g.Hooks.on("updateUser", (user, changed) => {
        if (g.foundry.utils.hasProperty(changed, "flags.melee")) callback(toUser(user));
      });
    },
    publishPublicKey: async (key) => {
      await me().setFlag("melee", "publicKey", key);
    }
  };
}

// src/mapping.ts
var mapping_exports = {};
__export(mapping_exports, {
  HEALTH_FIELD: () => HEALTH_FIELD,
  defaultPaths: () => defaultPaths,
  fit: () => fit,
  fixUp: () => fixUp,
  getPath: () => getPath,
  hasMeleeFields: () => hasMeleeFields,
  mapSheet: () => mapSheet,
  mergeSheet: () => mergeSheet,
  parseMapping: () => parseMapping,
  templateFor: () => templateFor
});
var HEALTH_FIELD = {
  "age-du-silicium": "blessures",
  "dark-earth": "pv",
  "duel-2d6": "pv",
  "sistema-2d6": "pv",
  "space-opera-d100": "pv"
};
var NOT_MAPPED = /* @__PURE__ */ new Set(["id", "name", "side", "contact_with"]);
function defaultPaths(ruleset, template) {
  const paths = {};
  for (const field of Object.keys(template)) {
    if (NOT_MAPPED.has(field)) continue;
    paths[field] = field === HEALTH_FIELD[ruleset] ? [`system.${field}`, "system.attributes.hp.max"] : `system.${field}`;
  }
  const health = HEALTH_FIELD[ruleset];
  if (health && !(health in paths)) paths[health] = [`system.${health}`, "system.attributes.hp.max"];
  return paths;
}
function getPath(source, path) {
  let value = source;
  for (const part of path.split(".")) {
    if (value === null || typeof value !== "object") return void 0;
    value = value[part];
  }
  return value;
}
function setPath(target, path, value) {
  const parts = path.split(".");
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (next === null || typeof next !== "object" || Array.isArray(next)) node[part] = {};
    node = node[part];
  }
  node[parts[parts.length - 1]] = value;
}
function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
function toJson(value) {
  if (value === void 0 || typeof value === "function") return void 0;
  try {
    return JSON.parse(JSON.stringify(value));
  } catch {
    return void 0;
  }
}
function fit(template, source) {
  if (typeof template === "number" || template === null) {
    return typeof source === "number" && Number.isFinite(source) ? Math.round(source) : template;
  }
  if (typeof template === "string") return typeof source === "string" && source !== "" ? source : template;
  if (typeof template === "boolean") return typeof source === "boolean" ? source : template;
  if (Array.isArray(template)) return Array.isArray(source) ? toJson(source) ?? template : template;
  if (!isObject(source)) return template;
  const result = { ...template };
  const values = Object.values(template);
  const numbers = values.length > 0 && values.every((v) => typeof v === "number");
  for (const [key, value] of Object.entries(source)) {
    if (key in template) result[key] = fit(template[key], value);
    else if (numbers && typeof value === "number" && Number.isFinite(value)) result[key] = Math.round(value);
  }
  return result;
}
function mergeSheet(target, partial) {
  if (!isObject(partial)) return target;
  for (const [key, value] of Object.entries(partial)) {
    const json = toJson(value);
    if (json === void 0) continue;
    const current = target[key];
    target[key] = isObject(current) && isObject(json) ? mergeSheet({ ...current }, json) : json;
  }
  return target;
}
function mapSheet(input) {
  const sheet = JSON.parse(JSON.stringify(input.template));
  delete sheet.contact_with;
  sheet.id = input.id;
  sheet.name = input.name.slice(0, 80) || input.id;
  sheet.side = input.side;
  const paths = { ...defaultPaths(input.ruleset, input.template), ...input.mapping[input.ruleset] ?? {} };
  const read = [];
  for (const [field, from] of Object.entries(paths)) {
    const current = getPath(sheet, field);
    for (const path of Array.isArray(from) ? from : [from]) {
      const found = getPath({ system: input.system }, path);
      if (found === void 0 || found === null) continue;
      setPath(sheet, field, fit(toJson(current) ?? null, found));
      if (typeof found === typeof current) read.push(field);
      break;
    }
  }
  return { sheet: mergeSheet(sheet, input.sheet), read };
}
function hasMeleeFields(read, sheet) {
  return read.length > 0 || isObject(sheet) && Object.keys(sheet).length > 0;
}
function fixUp(ruleset, sheets) {
  if (ruleset !== "dark-earth") return;
  for (const sheet of sheets) {
    if (sheet.contact_with !== void 0) continue;
    sheet.contact_with = sheets.filter((other) => other.side !== sheet.side).map((other) => other.id);
  }
}
function templateFor(example, ally) {
  const first = example[0];
  if (!first) return {};
  if (ally) return first;
  return example.find((c) => c.side !== first.side) ?? example[1] ?? first;
}
function parseMapping(text) {
  if (text === void 0 || text === null || text === "") return {};
  const value = typeof text === "string" ? JSON.parse(text) : text;
  if (!isObject(value)) throw new Error("mapping: not an object of rulesets");
  const mapping = {};
  for (const [ruleset, paths] of Object.entries(value)) {
    if (!isObject(paths)) throw new Error(`mapping.${ruleset}: not an object of sheet fields`);
    const checked = {};
    for (const [field, from] of Object.entries(paths)) {
      if (typeof from === "string" || Array.isArray(from) && from.every((p) => typeof p === "string")) checked[field] = from;
      else throw new Error(`mapping.${ruleset}.${field}: not a path or a list of paths`);
    }
    mapping[ruleset] = checked;
  }
  return mapping;
}

// src/melee.ts
function asCreate(body) {
  return body;
}
function asAction(action) {
  if (typeof action.type !== "string" || typeof action.actor !== "string") throw new Error("an action needs a type and an actor");
  return action;
}
function exampleCombatants(ruleset) {
  const combat = ruleset.example.combat;
  return Array.isArray(combat?.combatants) ? combat.combatants : [];
}
function choiceLabel(ruleset, lang, param, value) {
  const byLang = ruleset.labels[lang];
  const words = byLang?.[param]?.[value];
  return typeof words === "string" ? words : void 0;
}
function conditionLabels(ruleset, lang) {
  const byLang = ruleset.labels[lang] ?? ruleset.labels.en;
  const words = byLang?.condition;
  return words !== null && typeof words === "object" ? words : {};
}
function optionDefault(ruleset, option) {
  return ruleset.option_defaults[option];
}
function encodeChoice(choice) {
  return choice !== null && typeof choice === "object" ? JSON.stringify(choice) : String(choice);
}
function params(legal) {
  const all = legal.params;
  return Object.entries(all).filter((entry) => entry[1] !== void 0);
}
function sentences(entry) {
  return entry.events.map((event) => event.text).filter((t) => typeof t === "string" && t !== "");
}

// src/mirror.ts
var HEALTH_PATHS = [
  { value: "system.attributes.hp.value", max: "system.attributes.hp.max" },
  { value: "system.hp.value", max: "system.hp.max" },
  { value: "system.health.value", max: "system.health.max" }
];
var FALLBACK_HEALTH = { value: "flags.melee.health.value", max: "flags.melee.health.max" };
function parseHealthSetting(text) {
  if (typeof text !== "string" || text.trim() === "") return null;
  const value = JSON.parse(text);
  if (typeof value?.value !== "string") throw new Error('health: {"value": "system.\u2026.value", "max": "system.\u2026.max"} expected');
  return typeof value.max === "string" ? { value: value.value, max: value.max } : { value: value.value };
}
function healthPaths(system, setting) {
  if (setting) return setting;
  return HEALTH_PATHS.find((paths) => typeof getPath({ system }, paths.value) === "number") ?? FALLBACK_HEALTH;
}
function meleeHealth(ruleset, combatant) {
  const field = HEALTH_FIELD[ruleset];
  const value = field ? combatant[field] : void 0;
  if (typeof value !== "number") return null;
  const max = combatant[`${field}_max`];
  return { value, max: typeof max === "number" ? max : null };
}
function healthUpdate(paths, health) {
  const data = { [paths.value]: health.value };
  if (paths.max && health.max !== null) data[paths.max] = health.max;
  return data;
}
var STATUS_PREFIX = "melee-";
function statusId(condition) {
  return `${STATUS_PREFIX}${condition}`;
}
function conditionCodes(combatant) {
  return [...new Set(combatant.conditions.map((c) => c.code).filter((code) => code !== ""))];
}
var ICONS = {
  dead: "icons/svg/skull.svg",
  unconscious: "icons/svg/unconscious.svg",
  knocked_out: "icons/svg/unconscious.svg",
  coma: "icons/svg/unconscious.svg",
  dying: "icons/svg/degen.svg",
  stable: "icons/svg/regen.svg",
  prone: "icons/svg/falling.svg",
  stunned: "icons/svg/daze.svg",
  paralysed: "icons/svg/paralysis.svg",
  immobilised: "icons/svg/net.svg",
  disarmed: "icons/svg/sword.svg",
  surprised: "icons/svg/hazard.svg",
  frenzy: "icons/svg/terror.svg",
  wound: "icons/svg/blood.svg",
  grave_wound: "icons/svg/blood.svg",
  critical_wound: "icons/svg/blood.svg",
  eliminated: "icons/svg/skull.svg",
  incapacitated: "icons/svg/daze.svg"
};
var DEFAULT_ICON = "icons/svg/aura.svg";
function statusEffects(conditionLabels2) {
  return Object.entries(conditionLabels2).filter((entry) => typeof entry[1] === "string").map(([code, words]) => ({ id: statusId(code), name: words.charAt(0).toUpperCase() + words.slice(1), img: ICONS[code] ?? DEFAULT_ICON }));
}
function turnOf(awaiting, combatantIds) {
  return awaiting.map((a) => a.actor).find((actor) => combatantIds.includes(actor)) ?? null;
}

// src/seal.ts
var ALGORITHM = { name: "RSA-OAEP", hash: "SHA-256" };
function subtle() {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error("no-webcrypto");
  return s;
}
async function generateKeyPair() {
  const pair = await subtle().generateKey({ ...ALGORITHM, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) }, true, [
    "encrypt",
    "decrypt"
  ]);
  return {
    publicKey: await subtle().exportKey("jwk", pair.publicKey),
    privateKey: await subtle().exportKey("jwk", pair.privateKey)
  };
}
function toBase64(bytes) {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}
function fromBase64(text) {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}
async function seal(publicKey, secret) {
  const key = await subtle().importKey("jwk", publicKey, ALGORITHM, false, ["encrypt"]);
  const sealed = await subtle().encrypt(ALGORITHM, key, new TextEncoder().encode(secret));
  return toBase64(new Uint8Array(sealed));
}
async function open(privateKey, sealed) {
  try {
    const key = await subtle().importKey("jwk", privateKey, ALGORITHM, false, ["decrypt"]);
    return new TextDecoder().decode(await subtle().decrypt(ALGORITHM, key, fromBase64(sealed)));
  } catch {
    return null;
  }
}

// src/table.ts
function meleeLang(foundryLang) {
  const base = foundryLang.toLowerCase().split("-")[0];
  return base === "fr" ? "fr" : base === "pt" ? "pt" : "en";
}
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}
function parseKeyPair(text) {
  if (typeof text !== "string" || !text) return null;
  try {
    const pair = JSON.parse(text);
    return pair.publicKey && pair.privateKey ? { publicKey: pair.publicKey, privateKey: pair.privateKey } : null;
  } catch {
    return null;
  }
}
function humanize(id) {
  const words = id.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
var MeleeTable = class _MeleeTable {
  constructor(host) {
    this.host = host;
  }
  host;
  keys = null;
  followers = /* @__PURE__ */ new Map();
  prompting = /* @__PURE__ */ new Set();
  recheck = /* @__PURE__ */ new Set();
  /** After stop(): what was under way finishes quietly, nothing new starts. */
  stopped = false;
  opened = /* @__PURE__ */ new Map();
  rulesets = /* @__PURE__ */ new Map();
  /** The public keys seen, per user: a user update that keeps its key needs no new seal. */
  knownKeys = /* @__PURE__ */ new Map();
  /** Settles when ready() is done (keys made and published, fights resumed). */
  ready = Promise.resolve();
  t(key, data) {
    return this.host.localize(`MELEE.${key}`, data);
  }
  client(token) {
    const url = String(this.host.setting("url") ?? "").replace(/\/+$/, "");
    if (!url) throw new Error(this.t("Error.NoUrl"));
    const apiKey = String(this.host.setting("apiKey") ?? "");
    return new MeleeClient({
      baseUrl: url,
      lang: meleeLang(this.host.lang()),
      ...apiKey ? { apiKey } : {},
      ...token ? { token } : {}
    });
  }
  ruleset(id) {
    let found = this.rulesets.get(id);
    if (!found) {
      found = this.client().ruleset(id);
      found.catch(() => this.rulesets.delete(id));
      this.rulesets.set(id, found);
    }
    return found;
  }
  /** Once Foundry is ready: this browser's key pair, published; then (a GM) the fights resumed. */
  start() {
    this.ready = this.init();
    return this.ready;
  }
  async init() {
    try {
      const stored = parseKeyPair(this.host.setting("keyPair"));
      this.keys = stored ?? await generateKeyPair();
      if (!stored) await this.host.setSetting("keyPair", JSON.stringify(this.keys));
      const published = this.host.user().publicKey;
      if (JSON.stringify(published) !== JSON.stringify(this.keys.publicKey)) await this.host.publishPublicKey(this.keys.publicKey);
    } catch (error) {
      this.host.notify("error", this.t("Error.NoCrypto"));
      console.error("melee |", error);
      return;
    }
    for (const user of this.host.users()) this.knownKeys.set(user.id, JSON.stringify(user.publicKey));
    if (this.host.user().isGM) {
      for (const combat of this.host.combats()) await this.resume(combat).catch((e) => this.fail(e));
    }
    for (const combat of this.host.combats()) this.combatChanged(combat);
  }
  fail(error) {
    if (this.stopped) return;
    const message = error instanceof MeleeProblem ? error.detail ?? error.title : error instanceof Error ? error.message : String(error);
    this.host.notify("error", this.t("Error.Melee", { detail: message }));
    console.error("melee |", error);
  }
  async unseal(sealed, cacheKey) {
    const cached = this.opened.get(cacheKey);
    if (cached) return cached;
    const mine = sealed?.[this.host.user().id];
    if (!mine || !this.keys) return null;
    const token = await open(this.keys.privateKey, mine);
    if (token) this.opened.set(cacheKey, token);
    return token;
  }
  gmToken(state) {
    return this.host.user().isGM ? this.unseal(state.gm, `${state.combatId}:gm`) : Promise.resolve(null);
  }
  async sealFor(users, secret) {
    const sealed = {};
    for (const user of users) if (user.publicKey) sealed[user.id] = await seal(user.publicKey, secret);
    return sealed;
  }
  /** The active GM who follows the fights: the first by id of those who hold the GM token. */
  leads(state) {
    const gms = this.host.users().filter((u) => u.isGM && u.active && state.gm[u.id]).map((u) => u.id).sort();
    return gms[0] === this.host.user().id;
  }
  /** Stops following every fight (the module being shut down). */
  stop() {
    this.stopped = true;
    for (const subscription of this.followers.values()) subscription.close();
    this.followers.clear();
  }
  /** Starts a Melee combat from a Foundry Combat: every Combatant mapped to a sheet (src/mapping.ts). */
  async startCombat(o = {}) {
    const user = this.host.user();
    if (!user.isGM) throw new Error(this.t("Error.GMOnly"));
    await this.ready;
    const combat = o.combat ?? this.host.currentCombat();
    if (!combat) {
      this.host.notify("warn", this.t("Error.NoCombat"));
      return null;
    }
    const previous = combat.state();
    if (previous && previous.status !== "over") {
      this.host.notify("warn", this.t("Error.AlreadyStarted"));
      return previous;
    }
    if (!this.keys) throw new Error(this.t("Error.NoCrypto"));
    const rulesetId = String(this.host.setting("ruleset") ?? "");
    const mapping = parseMapping(this.host.setting("mapping"));
    const ruleset = await this.ruleset(rulesetId);
    const example = exampleCombatants(ruleset);
    const lang = meleeLang(this.host.lang());
    const sheets = [];
    const bare = [];
    const entries = combat.combatants.map((c) => {
      const ally = c.disposition === 1 || c.disposition !== -1 && (c.actor?.ownerIds.length ?? 0) > 0;
      return { combatant: c, ally, template: templateFor(example, ally) };
    });
    for (const { combatant, ally, template } of entries) {
      const { sheet, read } = mapSheet({
        ruleset: rulesetId,
        template,
        id: combatant.id,
        name: combatant.name || combatant.actor?.name || combatant.id,
        side: ally ? "allies" : "enemies",
        system: combatant.actor?.system,
        sheet: combatant.actor?.sheet,
        mapping
      });
      if (!hasMeleeFields(read, combatant.actor?.sheet)) bare.push(combatant.name || combatant.actor?.name || combatant.id);
      sheets.push(sheet);
    }
    if (bare.length) {
      this.host.notify("error", this.t("Error.NoSheet", { names: bare.join(", ") }));
      return null;
    }
    fixUp(rulesetId, sheets);
    const kept = [];
    sheets.forEach((sheet, i) => {
      const { combatant } = entries[i];
      if (this.host.mapActor({ sheet, actor: combatant.actor, combatant, ruleset: rulesetId }) !== false) kept.push(sheet);
    });
    const body = { ruleset: rulesetId, lang, combatants: kept };
    if (o.dice) body.dice = o.dice;
    if (o.seed !== void 0) body.seed = o.seed;
    if (o.options) body.options = o.options;
    const created = await this.client().createCombat(asCreate(body));
    const users = this.host.users();
    const gms = users.filter((u) => u.isGM);
    const tokens = {};
    for (const sheet of kept) {
      const id = String(sheet.id);
      const token = created.tokens.combatants[id];
      if (!token) continue;
      const owners = combat.combatants.find((c) => c.id === id)?.actor?.ownerIds ?? [];
      tokens[id] = await this.sealFor(
        users.filter((u) => u.isGM || owners.includes(u.id)),
        token
      );
      const unkeyed = users.filter((u) => !u.isGM && owners.includes(u.id) && !u.publicKey);
      for (const u of unkeyed) this.host.notify("warn", this.t("Warn.NoKey", { user: u.name }));
    }
    const gmToken = created.tokens.gm;
    const state = {
      combatId: created.id,
      ruleset: rulesetId,
      lang,
      status: created.status,
      version: created.version,
      awaiting: created.awaiting,
      lastSeq: 0,
      names: Object.fromEntries(kept.map((s) => [String(s.id), String(s.name)])),
      dicePolicy: String(o.options?.dice_policy ?? optionDefault(ruleset, "dice_policy") ?? "own"),
      gm: await this.sealFor(gms, gmToken),
      tokens
    };
    this.opened.set(`${created.id}:gm`, gmToken);
    await this.saveSnapshot(created.id, await this.trySnapshot(this.client(gmToken), created.id));
    await this.mirror(combat, state, created).catch((e) => this.fail(e));
    await combat.setState(state);
    this.follow(combat, state, gmToken);
    this.host.notify("info", this.t("Info.Started", { ruleset: ruleset.name }));
    return state;
  }
  /** The GM ends the fight (Melee's `end_combat`). */
  async endCombat(combat = this.host.currentCombat(), reason) {
    const state = combat?.state();
    if (!combat || !state) return;
    const token = await this.gmToken(state);
    if (!token) throw new Error(this.t("Error.GMOnly"));
    await this.client(token).act(state.combatId, asAction({ type: "end_combat", actor: "gm", ...reason ? { reason } : {} }));
  }
  async trySnapshot(client, id) {
    try {
      return await client.snapshot(id);
    } catch (error) {
      if (error instanceof MeleeProblem && error.status === 404) return null;
      throw error;
    }
  }
  /** The snapshots this browser keeps, by Melee combat id (a client setting: see saveSnapshot). */
  snapshots() {
    try {
      const all = JSON.parse(String(this.host.setting("snapshots") || "{}"));
      return all !== null && typeof all === "object" ? all : {};
    } catch {
      return {};
    }
  }
  /** Keeps (or, null, forgets) a fight's snapshot in the leading GM's browser only: a client
   * setting. Not in the Combat's flags, nor in a world setting or a document: Foundry sends those
   * to every client, players included, whatever their ownership or a setting's `restricted`. */
  async saveSnapshot(combatId, snapshot) {
    const all = this.snapshots();
    if (snapshot) all[combatId] = snapshot;
    else if (combatId in all) delete all[combatId];
    else return;
    await this.host.setSetting("snapshots", JSON.stringify(all));
  }
  /** Melee's combat (`GET /combats/{id}` or the creation's answer) mirrored onto the world:
   * health onto the actors, conditions as status effects, the tracker's turn and round. */
  async mirror(combat, state, melee) {
    const ruleset = await this.ruleset(state.ruleset);
    this.host.addStatusEffects(statusEffects(conditionLabels(ruleset, state.lang)));
    const health = parseHealthSetting(this.host.setting("health"));
    for (const fighter of melee.combatants) {
      const actor = combat.combatants.find((c) => c.id === fighter.id)?.actor;
      if (!actor) continue;
      const id = String(fighter.id);
      const now = meleeHealth(state.ruleset, fighter);
      if (now) await combat.updateActor(id, healthUpdate(healthPaths(actor.system, health), now));
      const wanted = conditionCodes(fighter).map(statusId);
      for (const status of actor.statuses) {
        if (status.startsWith(STATUS_PREFIX) && !wanted.includes(status)) await combat.setStatus(id, status, false);
      }
      for (const status of wanted) if (!actor.statuses.includes(status)) await combat.setStatus(id, status, true);
    }
    await combat.setTurn(turnOf(melee.awaiting, combat.combatants.map((c) => c.id)), melee.round);
  }
  /** A GM's client at start-up: a fight Melee no longer has is restored from its snapshot, then followed. */
  async resume(combat) {
    const state = combat.state();
    if (!state || state.status === "over") return;
    const token = await this.gmToken(state);
    if (!token || !this.leads(state)) return;
    const client = this.client(token);
    try {
      await client.combat(state.combatId);
    } catch (error) {
      const snapshot = this.snapshots()[state.combatId];
      if (!(error instanceof MeleeProblem) || error.status !== 404 && error.status !== 410 || !snapshot) throw error;
      try {
        await client.restore(snapshot);
        this.host.notify("info", this.t("Info.Restored"));
      } catch (restoreError) {
        if (!(restoreError instanceof MeleeProblem) || restoreError.status !== 409) throw restoreError;
      }
    }
    this.follow(combat, state, token);
  }
  follow(combat, state, token) {
    if (this.followers.has(combat.id)) return;
    const client = this.client(token);
    let chain = Promise.resolve();
    let pending = 0;
    const subscription = client.subscribe(
      state.combatId,
      {
        onEntry: (entry) => {
          pending++;
          chain = chain.then(() => this.record(combat, client, entry, --pending === 0)).catch((e) => this.fail(e));
          return chain;
        },
        onError: (error) => {
          this.followers.delete(combat.id);
          if (combat.state()?.status !== "over") this.fail(error);
        }
      },
      { after: state.lastSeq }
    );
    this.followers.set(combat.id, subscription);
  }
  /** One log entry: its sentences to the chat; then (the last one of a burst) the state and the snapshot. */
  async record(combat, client, entry, last) {
    const state = combat.state();
    if (this.stopped || !state || entry.seq <= state.lastSeq) return;
    const lines = sentences(entry);
    if (lines.length) await this.host.chat(`<div class="melee-entry">${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("")}</div>`);
    const next = { ...state, lastSeq: entry.seq };
    if (last) {
      const now = await client.combat(state.combatId);
      next.status = now.status;
      next.version = now.version;
      next.awaiting = now.awaiting;
      await this.mirror(combat, next, now).catch((e) => this.fail(e));
      await this.saveSnapshot(state.combatId, now.status === "over" ? null : await this.trySnapshot(client, state.combatId));
    }
    await combat.setState(next);
    if (next.status === "over") {
      this.followers.get(combat.id)?.close();
      this.followers.delete(combat.id);
    }
  }
  /** A Combat's flags changed (on every client): prompt whoever this client acts for. */
  combatChanged(combat) {
    const state = combat.state();
    if (this.stopped || !state || state.status === "over") return;
    void this.promptAll(combat, state).catch((e) => this.fail(e));
  }
  /** Opens again the prompts this client's user has to answer in the current Combat (one closed
   * before acting comes back): the combat tracker's "Your move" button. */
  promptAgain() {
    const combat = this.host.currentCombat();
    if (combat) this.combatChanged(combat);
  }
  async promptAll(combat, state) {
    await this.ready;
    this.host.addStatusEffects(statusEffects(conditionLabels(await this.ruleset(state.ruleset), state.lang)));
    const me = this.host.user();
    const users = this.host.users();
    for (const awaited of state.awaiting) {
      const actor = awaited.actor;
      let token = null;
      if (!me.isGM) {
        token = await this.unseal(state.tokens[actor], `${state.combatId}:${actor}`);
      } else if (this.leads(state)) {
        const owners = combat.combatants.find((c) => c.id === actor)?.actor?.ownerIds ?? [];
        const answered = users.some((u) => !u.isGM && u.active && owners.includes(u.id) && state.tokens[actor]?.[u.id]);
        if (!answered) token = await this.gmToken(state);
      }
      if (token) void this.prompt(combat, actor, awaited.reason, token).catch((e) => this.fail(e));
    }
  }
  label(kind, id) {
    const key = `MELEE.${kind}.${id}`;
    return this.host.has(key) ? this.host.localize(key) : humanize(id);
  }
  /** The words for one choice of a parameter. */
  choice(ruleset, state, param, value) {
    if (value !== null && typeof value === "object") {
      return Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => this.choice(ruleset, state, k, v)).join(", ");
    }
    const text = String(value);
    if (typeof value === "boolean") return this.t(value ? "Choice.Yes" : "Choice.No");
    return state.names[text] ?? choiceLabel(ruleset, state.lang, param, text) ?? humanize(text);
  }
  /** The legal actions as buttons; one that has a single choice of target or weapon says it. */
  buttonLabel(ruleset, state, legal) {
    const details = params(legal).filter(([name, p]) => p.required && p.choices?.length === 1 && name !== "actor").map(([name, p]) => this.choice(ruleset, state, name, p.choices[0]));
    const label = this.label("Action", legal.type);
    return details.length ? `${label} (${details.join(", ")})` : label;
  }
  /** The form of one legal action: a select per choice, a number per integer, a text per string. */
  fields(ruleset, state, legal) {
    const fields = [];
    for (const [name, p] of params(legal)) {
      const label = this.label("Param", name);
      if (p.choices) {
        if (p.choices.length <= 1 && !p.required) continue;
        fields.push({
          name,
          label,
          kind: "select",
          required: p.required,
          choices: p.choices.map((c) => ({ value: encodeChoice(c), label: this.choice(ruleset, state, name, c) }))
        });
      } else if (p.type === "array" && "items" in p && p.items) {
        p.items.forEach((item, i) => {
          fields.push({
            name: `${name}.${i}`,
            label: p.items.length > 1 ? `${label} ${i + 1}` : label,
            kind: "select",
            required: p.required,
            choices: (item.choices ?? []).map((c) => ({ value: encodeChoice(c), label: this.choice(ruleset, state, name, c) }))
          });
        });
      } else if (p.type === "object" && p.keys) {
        for (const key of p.keys) {
          fields.push({
            name: `${name}.${key}`,
            label: `${label}: ${this.label("Param", key)}`,
            kind: "number",
            required: p.required,
            min: 0,
            ...p.total !== void 0 ? { hint: this.t("Hint.Total", { total: p.total }) } : {}
          });
        }
      } else if (p.type === "integer" || p.type === "number") {
        fields.push({
          name,
          label,
          kind: "number",
          required: p.required,
          ...p.minimum !== null && p.minimum !== void 0 ? { min: p.minimum } : {},
          ...p.maximum !== null && p.maximum !== void 0 ? { max: p.maximum } : {}
        });
      } else if (p.type === "string" || p.type === void 0) {
        fields.push({ name, label, kind: "text", required: p.required });
      }
    }
    if (state.dicePolicy !== "server") fields.push({ name: "dice", label: this.t("Param.dice"), kind: "text", required: false, hint: this.t("Hint.Dice") });
    return fields;
  }
  /** The action a form's values make (values typed back from the legal choices). */
  static action(legal, actor, values) {
    const action = { type: legal.type, actor };
    for (const [name, p] of params(legal)) {
      if (p.type === "object" && p.keys) {
        const value = {};
        for (const key of p.keys) {
          const text2 = values[`${name}.${key}`]?.trim();
          if (text2) value[key] = Number(text2);
        }
        if (Object.keys(value).length) action[name] = value;
        continue;
      }
      if (p.type === "array" && "items" in p && p.items) {
        const picked = p.items.map((item, i) => item.choices?.find((c) => encodeChoice(c) === values[`${name}.${i}`])).filter((c) => c !== void 0);
        if (picked.length) action[name] = picked;
        continue;
      }
      const text = values[name];
      if (text === void 0 || text === "") {
        if (p.required && p.choices?.length === 1) action[name] = p.choices[0];
        continue;
      }
      if (p.choices) {
        const found = p.choices.find((c) => encodeChoice(c) === text);
        if (found !== void 0) action[name] = found;
      } else if (p.type === "integer" || p.type === "number") action[name] = Number(text);
      else action[name] = text;
    }
    const dice = values.dice?.split(/[\s,;]+/).filter(Boolean).map(Number);
    if (dice?.length) action.dice = dice;
    return action;
  }
  renderForm(fields) {
    const rows = fields.map((f) => {
      const id = `melee-${f.name.replace(/[^A-Za-z0-9_-]/g, "-")}`;
      let input;
      if (f.kind === "textarea") {
        input = `<textarea id="${id}" name="${escapeHtml(f.name)}" rows="16">${escapeHtml(f.value ?? "")}</textarea>`;
      } else if (f.kind === "select") {
        const blank = f.required ? "" : `<option value="">\u2014</option>`;
        input = `<select id="${id}" name="${escapeHtml(f.name)}">${blank}${(f.choices ?? []).map((c) => `<option value="${escapeHtml(c.value)}">${escapeHtml(c.label)}</option>`).join("")}</select>`;
      } else {
        const range = `${f.min !== void 0 ? ` min="${f.min}"` : ""}${f.max !== void 0 ? ` max="${f.max}"` : ""}`;
        input = `<input id="${id}" name="${escapeHtml(f.name)}" type="${f.kind === "number" ? "number" : "text"}"${range}>`;
      }
      const hint = f.hint ? `<p class="hint">${escapeHtml(f.hint)}</p>` : "";
      return `<div class="form-group"><label for="${id}">${escapeHtml(f.label)}</label><div class="form-fields">${input}</div>${hint}</div>`;
    });
    return rows.join("");
  }
  /** Prompts this client's user for one awaited actor: the legal actions, then the chosen one's form. */
  async prompt(combat, actor, reason, token) {
    const state = combat.state();
    if (!state) return;
    const key = `${combat.id}:${actor}`;
    if (this.prompting.has(key)) {
      this.recheck.add(key);
      return;
    }
    this.prompting.add(key);
    let again = false;
    try {
      const client = this.client(token);
      const ruleset = await this.ruleset(state.ruleset);
      const name = state.names[actor] ?? (actor === "gm" ? this.t("GM") : actor);
      const reasonKey = `MELEE.Reason.${reason}`;
      const content = `<p>${escapeHtml(this.host.has(reasonKey) ? this.host.localize(reasonKey, { name }) : this.t("Reason.default", { name }))}</p>`;
      for (; ; ) {
        const current = combat.state();
        if (this.stopped || !current || current.status === "over" || !current.awaiting.some((a) => a.actor === actor)) return;
        const options = await client.options(state.combatId, { actor });
        if (!options.actions.length) return;
        const buttons = options.actions.map((legal2, i) => ({ action: `o${i}`, label: this.buttonLabel(ruleset, state, legal2) }));
        const picked = await this.host.choose(this.t("Prompt.Title", { name }), content, buttons);
        if (picked === null) return;
        const legal = options.actions[Number(picked.slice(1))];
        if (!legal) return;
        const fields = this.fields(ruleset, state, legal);
        const values = await this.host.form(`${name}: ${this.label("Action", legal.type)}`, this.renderForm(fields), fields, this.t("Prompt.Submit"));
        if (values === null) continue;
        try {
          await client.act(state.combatId, asAction(_MeleeTable.action(legal, actor, values)));
          again = true;
          return;
        } catch (error) {
          if (!(error instanceof MeleeProblem)) throw error;
          this.host.notify("warn", error.detail ?? error.title);
        }
      }
    } finally {
      this.prompting.delete(key);
      if (this.recheck.delete(key) && again) this.combatChanged(combat);
    }
  }
  /** The GM's "Melee sheet" editor of an actor: its `flags.melee.sheet` as JSON, opened with the
   * sheet Melee would make of it now for the world's ruleset (the fields to fill), saved on submit;
   * emptied, the flag is removed. Returns whether a sheet was saved. */
  async editSheet(actorId) {
    if (!this.host.user().isGM) throw new Error(this.t("Error.GMOnly"));
    const actor = this.host.actor(actorId);
    if (!actor) return false;
    const rulesetId = String(this.host.setting("ruleset") ?? "");
    let current = actor.sheet;
    if (current === null || typeof current !== "object") {
      const example = exampleCombatants(await this.ruleset(rulesetId));
      const ally = actor.ownerIds.length > 0;
      const { sheet } = mapSheet({
        ruleset: rulesetId,
        template: templateFor(example, ally),
        id: actor.id,
        name: actor.name,
        side: ally ? "allies" : "enemies",
        system: actor.system,
        sheet: null,
        mapping: parseMapping(this.host.setting("mapping"))
      });
      const { id: _id, name: _name, side: _side, ...statistics } = sheet;
      current = statistics;
    }
    const field = { name: "sheet", label: this.t("Sheet.Label"), kind: "textarea", required: false, hint: this.t("Sheet.Hint"), value: JSON.stringify(current, null, 2) };
    for (; ; ) {
      const values = await this.host.form(this.t("Sheet.Title", { name: actor.name }), this.renderForm([field]), [field], this.t("Sheet.Save"));
      if (values === null) return false;
      const text = (values.sheet ?? "").trim();
      if (text === "") {
        await this.host.setActorSheet(actor.id, null);
        return false;
      }
      try {
        const sheet = JSON.parse(text);
        if (sheet === null || typeof sheet !== "object" || Array.isArray(sheet)) throw new Error("not an object");
        await this.host.setActorSheet(actor.id, sheet);
        return true;
      } catch {
        this.host.notify("warn", this.t("Error.SheetJson"));
        field.value = text;
      }
    }
  }
  /** A user published a (new) key: the lead GM seals their combatants' tokens for it. */
  async userChanged(user) {
    if (!this.host.user().isGM || !user.publicKey) return;
    const key = JSON.stringify(user.publicKey);
    if (this.knownKeys.get(user.id) === key) return;
    this.knownKeys.set(user.id, key);
    for (const combat of this.host.combats()) {
      const state = combat.state();
      if (!state || state.status === "over" || !this.leads(state)) continue;
      let changed = false;
      const tokens = { ...state.tokens };
      for (const c of combat.combatants) {
        if (!(user.isGM || c.actor?.ownerIds.includes(user.id))) continue;
        const token = await this.unseal(state.tokens[c.id], `${state.combatId}:${c.id}`);
        if (!token) continue;
        tokens[c.id] = { ...tokens[c.id], [user.id]: await seal(user.publicKey, token) };
        changed = true;
      }
      const gm = { ...state.gm };
      if (user.isGM) {
        const token = await this.gmToken(state);
        if (token) {
          gm[user.id] = await seal(user.publicKey, token);
          changed = true;
        }
      }
      if (changed) await combat.setState({ ...state, tokens, gm });
    }
  }
};

// src/index.ts
function install(host) {
  const table = new MeleeTable(host);
  host.onCombatChanged((combat) => table.combatChanged(combat));
  host.onUserChanged((user) => void table.userChanged(user));
  return table;
}
function register(g) {
  g.Hooks.once("init", () => registerSettings(g));
  g.Hooks.once("ready", () => {
    const table = install(foundryHost(g));
    const module = g.game.modules.get("melee");
    if (module) module.api = table;
    void table.start();
  });
  onActorMenu(g, "MELEE.Sheet.Menu", (actorId) => {
    const api = g.game.modules.get("melee")?.api;
    api?.editSheet(actorId).catch((error) => g.ui.notifications?.error(String(error instanceof Error ? error.message : error)));
  });
  g.Hooks.on("renderCombatTracker", (_app, html) => {
    const api = g.game.modules.get("melee")?.api;
    if (!api) return;
    const header = html.querySelector(".combat-tracker-header") ?? html;
    const add = (className, label, onClick) => {
      if (html.querySelector(`.${className}`)) return;
      const button = document.createElement("button");
      button.type = "button";
      button.className = className;
      button.textContent = g.game.i18n.localize(label);
      button.addEventListener("click", onClick);
      header.prepend(button);
    };
    add("melee-act", "MELEE.Act", () => api.promptAgain());
    if (g.game.user?.isGM) {
      add("melee-start", "MELEE.Start", () => {
        api.startCombat().catch((error) => g.ui.notifications?.error(String(error instanceof Error ? error.message : error)));
      });
    }
  });
}
if (typeof globalThis.Hooks !== "undefined") register(globalThis);
export {
  MeleeTable,
  foundryHost,
  install,
  mapping_exports as mapping,
  register,
  registerSettings
};
