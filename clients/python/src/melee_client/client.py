"""``Melee``: the synchronous client (httpx.Client)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Any, cast

import httpx

from ._common import (
    DEFAULT_RETRIES,
    LONG_POLL_SECONDS,
    STREAM_ATTEMPTS,
    STREAM_READ_TIMEOUT,
    Kind,
    Request,
    RetryPolicy,
    SseParser,
    action_request,
    base_headers,
    combat_request,
    decode,
    events_request,
    history_request,
    is_event_stream,
    new_idempotency_key,
    odds_body,
    restore_request,
    retryable,
    segment,
    stream_headers,
    stream_reason,
)
from .errors import MeleeProblem, MeleeStreamClosed
from .types import (
    Action,
    ActionResult,
    Combat,
    CombatCreate,
    CreatedCombat,
    EventsPage,
    LogEntry,
    MintedToken,
    Odds,
    Options,
    RestoredCombat,
    Ruleset,
    RulesetSummary,
    TokenInfo,
)


class Melee:
    """A Melee server, as one token (or none) sees it.

    ``Melee("https://melee.example.org", api_key=...)`` creates combats; ``with_token(token)``
    gives the same connection acting as a player or the game master. Use it as a context
    manager, or call ``close()``, to close the connection pool it made.
    """

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        api_key: str | None = None,
        lang: str | None = None,
        retries: int | RetryPolicy = DEFAULT_RETRIES,
        timeout: float = 30.0,
        http: httpx.Client | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token, self.api_key, self.lang = token, api_key, lang
        self.policy = retries if isinstance(retries, RetryPolicy) else RetryPolicy(retries=retries)
        self._owns_http = http is None
        self._http = http or httpx.Client(timeout=httpx.Timeout(timeout, connect=10.0), transport=transport)

    def with_token(self, token: str) -> Melee:
        """This client acting with ``token`` (a player's or the GM's), sharing its connections."""
        twin = Melee(
            self.base_url, token=token, api_key=self.api_key, lang=self.lang, retries=self.policy, http=self._http
        )
        return twin

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> Melee:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    # -- the operations ---------------------------------------------------------------

    def rulesets(self) -> list[RulesetSummary]:
        return cast(list[RulesetSummary], self._send(Request("GET", "/rulesets", Kind.SAFE)))

    def ruleset(self, ruleset_id: str) -> Ruleset:
        return cast(Ruleset, self._send(Request("GET", f"/rulesets/{segment(ruleset_id)}", Kind.SAFE)))

    def create_combat(self, body: CombatCreate, *, idempotency_key: str | None = None) -> CreatedCombat:
        """Create a combat; the answer has the tokens, shown once: hand each player theirs."""
        headers = {"Idempotency-Key": idempotency_key or new_idempotency_key()}
        request = Request("POST", "/combats", Kind.KEYED, json=dict(body), headers=headers)
        return cast(CreatedCombat, self._send(request))

    def combat(self, combat_id: str) -> Combat:
        return cast(Combat, self._send(Request("GET", f"/combats/{segment(combat_id)}", Kind.SAFE)))

    def act(
        self,
        combat_id: str,
        action: Action,
        *,
        idempotency_key: str | None = None,
        if_match: str | int | None = None,
    ) -> ActionResult:
        """Post an action, once: one fresh Idempotency-Key (or yours), the same on every retry.

        Retried: no answer, 503 (``outcome-unknown`` too: the key makes the retry return the first
        answer), 429 and 409 ``request-in-flight`` / ``version-conflict``. Final: 412 (``if_match``, a
        combat version, is stale: reload and decide again), 409 ``action-limit-reached``, other 4xx.
        """
        return cast(ActionResult, self._send(action_request(combat_id, action, idempotency_key, if_match)))

    def options(self, combat_id: str, *, actor: str | None = None) -> Options:
        params = {} if actor is None else {"actor": actor}
        request = Request("GET", f"/combats/{segment(combat_id)}/options", Kind.SAFE, params=params)
        return cast(Options, self._send(request))

    def odds(self, combat_id: str, action: Action, *, answers: list[Action] | None = None, **settings: Any) -> Odds:
        """The odds of ``action`` before it is sent (``method``, ``runs``, ``seed``, ``max_leaves`` in ``settings``)."""
        body = odds_body(action, answers, settings)
        return cast(Odds, self._send(Request("POST", f"/combats/{segment(combat_id)}/odds", Kind.SAFE, json=body)))

    def undo(self, combat_id: str, *, if_match: str | int | None = None) -> ActionResult:
        """The game master takes back the last action (retried only when it cannot have been applied)."""
        return cast(ActionResult, self._send(history_request(combat_id, "undo", if_match)))

    def redo(self, combat_id: str, *, if_match: str | int | None = None) -> ActionResult:
        return cast(ActionResult, self._send(history_request(combat_id, "redo", if_match)))

    def snapshot(self, combat_id: str) -> str:
        """The combat as an opaque sealed string (the GM's token), for ``restore`` later."""
        answer = self._send(Request("GET", f"/combats/{segment(combat_id)}/snapshot", Kind.SAFE))
        return str(answer["snapshot"])

    def restore(self, snapshot: str, *, token: str | None = None, idempotency_key: str | None = None) -> RestoredCombat:
        """Bring a snapshot's combat back under its id (its tokens work again); a 409 while it is live.

        Sent with an Idempotency-Key (fresh, or yours), the same on its retries, and with ``token`` (one
        of the combat's tokens; default: this client's) as the bearer. The answer is the combat as that
        token sees it, or only ``{id, ruleset, version}`` (no token of the combat: ``combat(id)`` reads it).
        """
        request = restore_request(snapshot, token or self.token, idempotency_key)
        return cast(RestoredCombat, self._send(request))

    def delete_combat(self, combat_id: str) -> None:
        """Delete the combat (the GM's token): its tokens stop working, its streams end."""
        self._send(combat_request("DELETE", combat_id, kind=Kind.UNKEYED))

    def mint_token(self, combat_id: str, *, role: str, combatant: str | None = None) -> MintedToken:
        """Mint a token (the GM's token): a player's for ``combatant`` (``role="player"``) or another GM's."""
        body = {"role": role, **({"combatant": combatant} if combatant is not None else {})}
        return cast(MintedToken, self._send(combat_request("POST", combat_id, "/tokens", Kind.UNKEYED, body)))

    def tokens(self, combat_id: str) -> list[TokenInfo]:
        """The combat's tokens (the GM's token): each one's public id, role and combatant, never the token."""
        return cast(list[TokenInfo], self._send(combat_request("GET", combat_id, "/tokens")))

    def revoke_token(self, combat_id: str, token_id: str) -> None:
        """Revoke a token by its public id (``tokens()``): it stops working at once."""
        self._send(combat_request("DELETE", combat_id, f"/tokens/{segment(token_id)}", Kind.UNKEYED))

    def events(
        self, combat_id: str, *, after: int | None = None, limit: int | None = None, wait: int | None = None
    ) -> EventsPage:
        """One page of the log after ``after``; with ``wait``, held up to that many seconds until one exists."""
        return cast(EventsPage, self._send(events_request(combat_id, after, limit, wait)))

    # -- the live log ------------------------------------------------------------------

    def entries(
        self,
        combat_id: str,
        *,
        after: int | None = 0,
        on_reset: Callable[[], None] | None = None,
        stop: threading.Event | None = None,
    ) -> Iterator[LogEntry]:
        """Every log entry after ``after`` (0: the whole log; None: only new ones), as it comes.

        Reads ``GET /combats/{id}/stream`` and resumes with ``Last-Event-ID`` after a drop or a
        ``reconnect``; when the stream cannot be opened (503, 429, no connection) three times in
        a row it long-polls ``GET /events?wait=`` once and tries the stream again, each failure
        waiting longer than the last (8 s at most). A ``reset``
        (the log was rewritten) calls ``on_reset`` (drop what you hold, reload the combat) and
        delivers the log again from its first entry, as the TypeScript SDK does. Ends when
        ``stop`` is set; raises MeleeStreamClosed on ``gone``/``revoked`` and MeleeProblem on a 4xx.
        """
        return self._entries(combat_id, after, on_reset, stop, _Holder())

    def _entries(
        self,
        combat_id: str,
        after: int | None,
        on_reset: Callable[[], None] | None,
        stop: threading.Event | None,
        holder: _Holder,
    ) -> Iterator[LogEntry]:
        last = self._head(combat_id) if after is None else after
        failures = 0
        while not (stop and stop.is_set()):
            try:
                if failures >= STREAM_ATTEMPTS:  # the long poll (its failures, too, wait longer each time)
                    page = self.events(combat_id, after=last, wait=LONG_POLL_SECONDS)
                    if page.get(
                        "reset"
                    ):  # rolled back past ``last``: the log was rewritten, read it again from its start
                        if on_reset:
                            on_reset()
                        last = 0
                        continue
                    for entry in page["items"]:
                        last = entry["seq"]
                        yield entry
                    failures = STREAM_ATTEMPTS - 1  # one more try of the stream, then poll again
                    continue
                received = False
                for kind, value in self._read_stream(combat_id, last, holder, stop):
                    if kind == "entry":
                        entry = cast(LogEntry, value)
                        last, received = entry["seq"], True
                        yield entry
                    elif kind == "reconnect":
                        received = True  # the server asks for it: at once
                    elif kind == "reset":
                        if on_reset:
                            on_reset()
                        last, received = 0, True  # the log was rewritten: all of it again
                        break
                    if stop and stop.is_set():
                        return
                if received:
                    failures = 0
                else:  # opened, then closed with nothing in it: wait before the next try
                    failures += 1
                    time.sleep(self.policy.delay(failures - 1, None))
            except (MeleeProblem, httpx.TransportError) as failure:
                if stop and stop.is_set():
                    return
                if isinstance(failure, MeleeProblem) and failure.status not in (429, 503):
                    raise
                failures += 1
                time.sleep(self.policy.delay(failures - 1, getattr(failure, "retry_after", None)))

    def subscribe(
        self,
        combat_id: str,
        on_entry: Callable[[LogEntry], None],
        *,
        on_error: Callable[[BaseException], None] | None = None,
        on_reset: Callable[[], None] | None = None,
        after: int | None = 0,
    ) -> Subscription:
        """``entries`` in a background thread: ``on_entry`` for each; ``close()`` ends it."""
        subscription = Subscription()

        def follow() -> None:
            try:
                entries = self._entries(combat_id, after, on_reset, subscription.stopped, subscription.holder)
                for entry in entries:
                    on_entry(entry)
            except BaseException as failure:  # noqa: BLE001 - handed to the caller
                if not subscription.stopped.is_set() and on_error:
                    on_error(failure)

        subscription.thread = threading.Thread(target=follow, name=f"melee-subscribe-{combat_id}", daemon=True)
        subscription.thread.start()
        return subscription

    # -- plumbing ------------------------------------------------------------------------

    def _head(self, combat_id: str) -> int:
        return self.events(combat_id, after=0, limit=1)["last_seq"]

    def _read_stream(
        self, combat_id: str, last: int, holder: _Holder, stop: threading.Event | None
    ) -> Iterator[tuple[str, Any]]:
        url = f"{self.base_url}/combats/{segment(combat_id)}/stream"
        headers = {**base_headers(self.token, self.api_key, self.lang), **stream_headers(last)}
        timeout = httpx.Timeout(30.0, read=STREAM_READ_TIMEOUT)
        with self._http.stream("GET", url, params={"after": last}, headers=headers, timeout=timeout) as response:
            holder.response = response
            if not is_event_stream(response):
                response.read()
                raise MeleeProblem.from_response(response)
            parser = SseParser()
            for line in response.iter_lines():
                if stop and stop.is_set():
                    return
                event = parser.feed(line)
                if event is None:
                    continue
                if event.event == "entry":
                    yield "entry", json.loads(event.data)
                elif event.event == "reconnect":
                    yield "reconnect", None
                    return
                elif event.event == "reset":
                    yield "reset", None
                    return
                elif event.event in ("gone", "revoked"):
                    raise MeleeStreamClosed(event.event, stream_reason(event.data))

    def _send(self, request: Request) -> Any:
        url = self.base_url + request.path
        headers = base_headers(self.token, self.api_key, self.lang) | request.headers
        timeout = httpx.USE_CLIENT_DEFAULT if request.timeout is None else request.timeout
        for attempt in range(self.policy.retries + 1):
            try:
                response = self._http.request(
                    request.method, url, params=request.params, json=request.json, headers=headers, timeout=timeout
                )
                return decode(response)
            except (MeleeProblem, httpx.TransportError) as failure:
                if attempt >= self.policy.retries or not retryable(request.kind, failure):
                    if isinstance(failure, MeleeProblem):
                        failure.idempotency_key = request.headers.get("Idempotency-Key")
                    raise
                time.sleep(self.policy.delay(attempt, getattr(failure, "retry_after", None)))
        raise AssertionError("unreachable")  # pragma: no cover


class _Holder:
    """The open stream's response, so that another thread may close it."""

    response: httpx.Response | None = None


class Subscription:
    """A running ``subscribe``: ``close()`` stops it (a long poll in flight ends within its 20 s wait)."""

    def __init__(self) -> None:
        self.stopped = threading.Event()
        self.holder = _Holder()
        self.thread: threading.Thread | None = None

    def close(self, timeout: float | None = None) -> None:
        """Stop following; with ``timeout``, wait that long for the thread to end."""
        self.stopped.set()
        response = self.holder.response
        if response is not None:
            # Wake the read blocked on the socket (closing it from this thread would not), then close.
            stream = response.extensions.get("network_stream")
            sock = stream.get_extra_info("socket") if stream is not None else None
            try:
                if sock is not None:
                    sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        if self.thread and timeout is not None:
            self.thread.join(timeout)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
