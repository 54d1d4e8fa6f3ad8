// The errors the client throws: MeleeProblem (the server said no, RFC 9457) and
// MeleeNetworkError (no answer, or an unreadable one: the request may or may not have arrived).

/** One bad field of a problem: `pointer` is a JSON Pointer into the request body (`/actor`). */
export interface ProblemFieldError {
  pointer?: string;
  /** The field's message (the server's `detail` of this field). */
  message: string;
  [member: string]: unknown;
}

/** The fields of an RFC 9457 problem document, as the client builds them. */
export interface ProblemInit {
  status: number;
  type?: string;
  title?: string;
  detail?: string;
  errors?: ProblemFieldError[];
  instance?: string;
  retryAfter?: number;
  language?: string;
  idempotencyKey?: string;
  body?: Record<string, unknown>;
}

/** A problem+json answer (RFC 9457): `status`, `type` (`/problems/version-conflict`), `title`, `detail`. */
export class MeleeProblem extends Error {
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail?: string;
  readonly errors?: ProblemFieldError[];
  readonly instance?: string;
  /** Seconds the server asked to wait (Retry-After), when it said. */
  readonly retryAfter?: number;
  /** The language `title` and `detail` are in (the answer's Content-Language: `en`, `fr`, `pt-BR`), when it said. */
  readonly language?: string;
  /** The Idempotency-Key the failed request carried: retry the same logical action with it. */
  idempotencyKey?: string;
  /** The whole problem document, with its extension members (`current_version`...). */
  readonly body: Record<string, unknown>;

  constructor(init: ProblemInit) {
    super(init.detail ?? init.title ?? `HTTP ${init.status}`);
    this.name = "MeleeProblem";
    this.status = init.status;
    this.type = init.type ?? "about:blank";
    this.title = init.title ?? `HTTP ${init.status}`;
    if (init.detail !== undefined) this.detail = init.detail;
    if (init.errors !== undefined) this.errors = init.errors;
    if (init.instance !== undefined) this.instance = init.instance;
    if (init.retryAfter !== undefined) this.retryAfter = init.retryAfter;
    if (init.language !== undefined) this.language = init.language;
    if (init.idempotencyKey !== undefined) this.idempotencyKey = init.idempotencyKey;
    this.body = init.body ?? {};
  }

  /** Whether this is the problem of that kind: `is("precondition-failed")`. */
  is(kind: string): boolean {
    return this.type === kind || this.type.endsWith(`/problems/${kind}`);
  }

  /** A 412's `current_version`: the version the combat is at now (reload, decide again). */
  get currentVersion(): number | undefined {
    const version = this.body["current_version"];
    return typeof version === "number" ? version : undefined;
  }

  /** The problem of a non-2xx answer (a body that is not a problem document still gives one). */
  static async fromResponse(response: Response): Promise<MeleeProblem> {
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(await response.text());
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
    } catch {
      // not JSON (a proxy's error page): the status says enough
    }
    const text = (name: string): string | undefined => (typeof body[name] === "string" ? (body[name] as string) : undefined);
    const init: ProblemInit = {
      status: response.status,
      type: text("type") ?? "about:blank",
      title: text("title") ?? (response.statusText || `HTTP ${response.status}`),
      body,
    };
    const detail = text("detail");
    if (detail !== undefined) init.detail = detail;
    const instance = text("instance");
    if (instance !== undefined) init.instance = instance;
    if (Array.isArray(body["errors"])) {
      init.errors = (body["errors"] as unknown[]).map((item) => {
        const field = (item && typeof item === "object" ? item : {}) as Record<string, unknown>;
        const message = typeof field["message"] === "string" ? field["message"] : typeof field["detail"] === "string" ? field["detail"] : "";
        const error: ProblemFieldError = { ...field, message };
        if (typeof field["pointer"] === "string") error.pointer = field["pointer"];
        return error;
      });
    }
    const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
    if (retryAfter !== undefined) init.retryAfter = retryAfter;
    const language = response.headers.get("Content-Language");
    if (language) init.language = language;
    return new MeleeProblem(init);
  }
}

/** No answer, or an unreadable one: the request may or may not have been applied. */
export class MeleeNetworkError extends Error {
  /** The Idempotency-Key the request carried: retry the same logical action with it. */
  idempotencyKey?: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MeleeNetworkError";
  }
}

/** Retry-After in seconds: a number of seconds or an HTTP date. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}
