import { MeleeNetworkError, MeleeProblem } from "./errors.js";
import { SseParser } from "./sse.js";
const MAX_STREAM_FAILURES = 3;
/** A fresh Idempotency-Key (a v4 UUID), also where crypto.randomUUID is missing (plain-http pages). */
export function newIdempotencyKey() {
    const webCrypto = globalThis.crypto;
    if (typeof webCrypto?.randomUUID === "function")
        return webCrypto.randomUUID();
    const bytes = webCrypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
/** The token a combatant acts with: its own, else the GM's (for NPCs and `gm`). */
export function tokenFor(tokens, actor) {
    return actor === "gm" ? tokens.gm : tokens.combatants[actor] ?? tokens.gm;
}
/** Whether a failure may be retried by the policy (the 409/412 rules of docs/vtt.md). */
export function isRetryable(error, policy) {
    if (error instanceof MeleeNetworkError)
        return policy.keyed;
    if (!(error instanceof MeleeProblem))
        return false;
    if (error.status === 429)
        return true; // refused before anything ran
    if (error.status === 503)
        return policy.keyed || error.is("store-unavailable");
    if (error.status === 409) {
        if (error.is("request-in-flight"))
            return policy.keyed;
        // Other actions kept committing first: nothing applied. With If-Match the 412 says so instead.
        if (error.is("version-conflict"))
            return !policy.conditional;
    }
    return false; // 412 (reload and decide again), the rules' 4xx, 409 action-limit-reached...: final
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
const segment = encodeURIComponent;
export class MeleeClient {
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
        this.actors = actors ?? new Map();
        const chosen = options.fetch ?? globalThis.fetch;
        if (typeof chosen !== "function")
            throw new TypeError("MeleeClient: no fetch here; pass options.fetch");
        this.fetchImpl = (input, init) => chosen(input, init); // unbound window.fetch throws "Illegal invocation"
    }
    /** The same client acting with another token (a player's, the GM's). */
    withToken(token) {
        return new MeleeClient({ ...this.config, token }, this.actors);
    }
    /** Who this client's token acts for, when a creation through this client (or its family) said: an id or "gm". */
    get actor() {
        return this.token === undefined ? undefined : this.actors.get(this.token);
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
        if (o.ifMatch !== undefined)
            headers["If-Match"] = etag(o.ifMatch);
        return this.keyed({ method: "POST", path: `/combats/${segment(id)}/actions`, body: action, headers, signal: o.signal }, key, { keyed: true, conditional: o.ifMatch !== undefined });
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
        if (o.ifMatch !== undefined)
            headers["If-Match"] = etag(o.ifMatch);
        const call = { method: "POST", path: `/combats/${segment(id)}/${which}`, headers };
        return this.retrying(() => this.request(call), { keyed: false, conditional: o.ifMatch !== undefined });
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
        const cap = this.config.retryMaxMs ?? 8000;
        const ceiling = Math.min(cap, base * 2 ** attempt);
        const retryAfter = error instanceof MeleeProblem && error.retryAfter !== undefined ? error.retryAfter * 1000 : 0;
        return Math.max(retryAfter, ceiling / 2) + Math.random() * (ceiling / 2);
    }
    // -- the transport ---------------------------------------------------------------------
    read(call) {
        return this.retrying(() => this.request(call), { keyed: true }, call.signal);
    }
    async keyed(call, key, policy) {
        try {
            return await this.retrying(() => this.request(call), policy, call.signal);
        }
        catch (error) {
            if (error instanceof MeleeProblem || error instanceof MeleeNetworkError)
                error.idempotencyKey = key;
            throw error;
        }
    }
    async retrying(attempt, policy, signal) {
        const retries = this.config.retries ?? 4;
        for (let n = 0;; n++) {
            try {
                return await attempt();
            }
            catch (error) {
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
            return undefined;
        let text;
        try {
            text = await response.text();
        }
        catch (error) {
            if (call.signal?.aborted)
                throw error;
            throw new MeleeNetworkError(`${call.method} ${call.path}: the answer was cut off`, { cause: error });
        }
        try {
            return JSON.parse(text);
        }
        catch (error) {
            throw new MeleeNetworkError(`${call.method} ${call.path}: the answer is not JSON`, { cause: error });
        }
    }
    /** The fetch itself: a non-2xx answer is thrown as its MeleeProblem. */
    async send(call) {
        const url = new URL(this.baseUrl + call.path);
        for (const [name, value] of Object.entries(call.query ?? {})) {
            if (value !== undefined)
                url.searchParams.set(name, String(value));
        }
        const headers = { Accept: "application/json", ...call.headers };
        if (call.body !== undefined)
            headers["Content-Type"] = "application/json";
        if (this.token && !headers["Authorization"])
            headers["Authorization"] = `Bearer ${this.token}`;
        if (this.config.apiKey)
            headers["X-API-Key"] = this.config.apiKey;
        if (this.config.lang)
            headers["Accept-Language"] = this.config.lang;
        const init = { method: call.method, headers };
        if (call.body !== undefined)
            init.body = JSON.stringify(call.body);
        if (call.signal)
            init.signal = call.signal;
        let response;
        try {
            response = await this.fetchImpl(url, init);
        }
        catch (error) {
            if (call.signal?.aborted)
                throw error;
            throw new MeleeNetworkError(`${call.method} ${call.path}: no answer (${String(error)})`, { cause: error });
        }
        if (!response.ok)
            throw await MeleeProblem.fromResponse(response);
        return response;
    }
}
/** One subscription's loop: the stream while it works, else the long poll. */
class Follower {
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
            }
            catch (error) {
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
                await sleep(this.client.backoff(Math.min(this.failures, 6), error), this.signal).catch(() => undefined);
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
        return error instanceof TypeError; // a body cut off mid-read
    }
    async deliver(entry) {
        if (entry.seq <= this.cursor)
            return; // already delivered (a replay after resuming)
        this.cursor = entry.seq;
        this.failures = 0;
        try {
            await this.handlers.onEntry(entry);
        }
        catch (error) {
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
        }
        catch (error) {
            // The stream's own 429 (too many streams) and 503 (the server holds all it may) say: long-poll.
            if (error instanceof MeleeProblem && (error.status === 429 || error.status === 503) && this.o.transport !== "stream") {
                this.fallBack();
                return;
            }
            throw error;
        }
        const type = response.headers.get("Content-Type") ?? "";
        if (!response.body || !type.includes("text/event-stream")) {
            await response.body?.cancel().catch(() => undefined);
            if (this.o.transport === "stream")
                throw new MeleeNetworkError("the stream is not an event stream here");
            this.fallBack();
            return;
        }
        // Open: only streams that cannot be opened count towards the fallback, not those a proxy ends.
        this.failures = 0;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        const parser = new SseParser();
        try {
            for (;;) {
                const { value, done } = await reader.read();
                if (done)
                    throw new MeleeNetworkError("the stream ended"); // a proxy's cut: resume
                for (const event of parser.feed(value)) {
                    if (event.event === "entry") {
                        await this.deliver(JSON.parse(event.data));
                    }
                    else if (event.event === "reconnect") {
                        return; // the server is stopping: resume at once from the cursor
                    }
                    else if (event.event === "reset") {
                        this.reset();
                        return;
                    }
                    else if (event.event === "gone" || event.event === "revoked") {
                        throw new MeleeProblem({
                            status: event.event === "gone" ? 404 : 401,
                            type: `/problems/${event.event === "gone" ? "not-found" : "token-revoked"}`,
                            title: event.event === "gone" ? "Combat gone" : "Token revoked",
                            detail: event.data || (event.event === "gone" ? "the combat was deleted or expired" : "this token was revoked"),
                        });
                    }
                }
            }
        }
        finally {
            reader.cancel().catch(() => undefined);
        }
    }
    /** One long poll, and the pages after it. */
    async poll() {
        const wait = Math.min(25, Math.max(1, this.o.wait ?? 20));
        const page = await this.client.events(this.id, { after: this.cursor, wait, limit: 200, signal: this.signal });
        if (page.last_seq < this.cursor) {
            this.reset(); // the log went back (replaced): read it again from its start
            return;
        }
        for (const entry of page.items)
            await this.deliver(entry);
        this.failures = 0;
    }
}
