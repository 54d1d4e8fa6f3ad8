// The errors the client throws: MeleeProblem (the server said no, RFC 9457) and
// MeleeNetworkError (no answer, or an unreadable one: the request may or may not have arrived).
/** A problem+json answer (RFC 9457): `status`, `type` (`/problems/version-conflict`), `title`, `detail`. */
export class MeleeProblem extends Error {
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
        if (init.detail !== undefined)
            this.detail = init.detail;
        if (init.errors !== undefined)
            this.errors = init.errors;
        if (init.instance !== undefined)
            this.instance = init.instance;
        if (init.retryAfter !== undefined)
            this.retryAfter = init.retryAfter;
        if (init.language !== undefined)
            this.language = init.language;
        if (init.idempotencyKey !== undefined)
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
        return typeof version === "number" ? version : undefined;
    }
    /** The problem of a non-2xx answer (a body that is not a problem document still gives one). */
    static async fromResponse(response) {
        let body = {};
        try {
            const parsed = JSON.parse(await response.text());
            if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
                body = parsed;
        }
        catch {
            // not JSON (a proxy's error page): the status says enough
        }
        const text = (name) => (typeof body[name] === "string" ? body[name] : undefined);
        const init = {
            status: response.status,
            type: text("type") ?? "about:blank",
            title: text("title") ?? (response.statusText || `HTTP ${response.status}`),
            body,
        };
        const detail = text("detail");
        if (detail !== undefined)
            init.detail = detail;
        const instance = text("instance");
        if (instance !== undefined)
            init.instance = instance;
        if (Array.isArray(body["errors"])) {
            init.errors = body["errors"].map((item) => {
                const field = (item && typeof item === "object" ? item : {});
                const message = typeof field["message"] === "string" ? field["message"] : typeof field["detail"] === "string" ? field["detail"] : "";
                const error = { ...field, message };
                if (typeof field["pointer"] === "string")
                    error.pointer = field["pointer"];
                return error;
            });
        }
        const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
        if (retryAfter !== undefined)
            init.retryAfter = retryAfter;
        const language = response.headers.get("Content-Language");
        if (language)
            init.language = language;
        return new MeleeProblem(init);
    }
}
/** No answer, or an unreadable one: the request may or may not have been applied. */
export class MeleeNetworkError extends Error {
    /** The Idempotency-Key the request carried: retry the same logical action with it. */
    idempotencyKey;
    constructor(message, options) {
        super(message, options);
        this.name = "MeleeNetworkError";
    }
}
/** Retry-After in seconds: a number of seconds or an HTTP date. */
export function parseRetryAfter(value) {
    if (value === null || value.trim() === "")
        return undefined;
    const seconds = Number(value);
    if (Number.isFinite(seconds))
        return Math.max(0, seconds);
    const date = Date.parse(value);
    return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}
