"""``AsyncMelee``: the asyncio client (httpx.AsyncClient), the same operations as ``Melee``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
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


class AsyncMelee:
    """A Melee server, as one token (or none) sees it: ``Melee``'s operations, awaited.

    ``async with AsyncMelee(base_url, api_key=...) as melee:``; ``with_token(token)`` shares its
    connections.
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
        http: httpx.AsyncClient | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token, self.api_key, self.lang = token, api_key, lang
        self.policy = retries if isinstance(retries, RetryPolicy) else RetryPolicy(retries=retries)
        self._owns_http = http is None
        self._http = http or httpx.AsyncClient(timeout=httpx.Timeout(timeout, connect=10.0), transport=transport)

    def with_token(self, token: str) -> AsyncMelee:
        """This client acting with ``token`` (a player's or the GM's), sharing its connections."""
        twin = AsyncMelee(
            self.base_url, token=token, api_key=self.api_key, lang=self.lang, retries=self.policy, http=self._http
        )
        return twin

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncMelee:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        await self.aclose()

    # -- the operations ---------------------------------------------------------------

    async def rulesets(self) -> list[RulesetSummary]:
        return cast(list[RulesetSummary], await self._send(Request("GET", "/rulesets", Kind.SAFE)))

    async def ruleset(self, ruleset_id: str) -> Ruleset:
        return cast(Ruleset, await self._send(Request("GET", f"/rulesets/{segment(ruleset_id)}", Kind.SAFE)))

    async def create_combat(self, body: CombatCreate, *, idempotency_key: str | None = None) -> CreatedCombat:
        """Create a combat; the answer has the tokens, shown once: hand each player theirs."""
        headers = {"Idempotency-Key": idempotency_key or new_idempotency_key()}
        request = Request("POST", "/combats", Kind.KEYED, json=dict(body), headers=headers)
        return cast(CreatedCombat, await self._send(request))

    async def combat(self, combat_id: str) -> Combat:
        return cast(Combat, await self._send(Request("GET", f"/combats/{segment(combat_id)}", Kind.SAFE)))

    async def act(
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
        return cast(ActionResult, await self._send(action_request(combat_id, action, idempotency_key, if_match)))

    async def options(self, combat_id: str, *, actor: str | None = None) -> Options:
        params = {} if actor is None else {"actor": actor}
        request = Request("GET", f"/combats/{segment(combat_id)}/options", Kind.SAFE, params=params)
        return cast(Options, await self._send(request))

    async def odds(
        self, combat_id: str, action: Action, *, answers: list[Action] | None = None, **settings: Any
    ) -> Odds:
        """The odds of ``action`` before it is sent (``method``, ``runs``, ``seed``, ``max_leaves`` in ``settings``)."""
        body = odds_body(action, answers, settings)
        return cast(
            Odds, await self._send(Request("POST", f"/combats/{segment(combat_id)}/odds", Kind.SAFE, json=body))
        )

    async def undo(self, combat_id: str, *, if_match: str | int | None = None) -> ActionResult:
        """The game master takes back the last action (retried only when it cannot have been applied)."""
        return cast(ActionResult, await self._send(history_request(combat_id, "undo", if_match)))

    async def redo(self, combat_id: str, *, if_match: str | int | None = None) -> ActionResult:
        return cast(ActionResult, await self._send(history_request(combat_id, "redo", if_match)))

    async def snapshot(self, combat_id: str) -> str:
        """The combat as an opaque sealed string (the GM's token), for ``restore`` later."""
        answer = await self._send(Request("GET", f"/combats/{segment(combat_id)}/snapshot", Kind.SAFE))
        return str(answer["snapshot"])

    async def restore(
        self, snapshot: str, *, token: str | None = None, idempotency_key: str | None = None
    ) -> RestoredCombat:
        """Bring a snapshot's combat back under its id (its tokens work again); a 409 while it is live.

        Sent with an Idempotency-Key (fresh, or yours), the same on its retries, and with ``token`` (one
        of the combat's tokens; default: this client's) as the bearer. The answer is the combat as that
        token sees it, or only ``{id, ruleset, version}`` (no token of the combat: ``combat(id)`` reads it).
        """
        request = restore_request(snapshot, token or self.token, idempotency_key)
        return cast(RestoredCombat, await self._send(request))

    async def delete_combat(self, combat_id: str) -> None:
        """Delete the combat (the GM's token): its tokens stop working, its streams end."""
        await self._send(combat_request("DELETE", combat_id, kind=Kind.UNKEYED))

    async def mint_token(self, combat_id: str, *, role: str, combatant: str | None = None) -> MintedToken:
        """Mint a token (the GM's token): a player's for ``combatant`` (``role="player"``) or another GM's."""
        body = {"role": role, **({"combatant": combatant} if combatant is not None else {})}
        return cast(MintedToken, await self._send(combat_request("POST", combat_id, "/tokens", Kind.UNKEYED, body)))

    async def tokens(self, combat_id: str) -> list[TokenInfo]:
        """The combat's tokens (the GM's token): each one's public id, role and combatant, never the token."""
        return cast(list[TokenInfo], await self._send(combat_request("GET", combat_id, "/tokens")))

    async def revoke_token(self, combat_id: str, token_id: str) -> None:
        """Revoke a token by its public id (``tokens()``): it stops working at once."""
        await self._send(combat_request("DELETE", combat_id, f"/tokens/{segment(token_id)}", Kind.UNKEYED))

    async def events(
        self, combat_id: str, *, after: int | None = None, limit: int | None = None, wait: int | None = None
    ) -> EventsPage:
        """One page of the log after ``after``; with ``wait``, held up to that many seconds until one exists."""
        return cast(EventsPage, await self._send(events_request(combat_id, after, limit, wait)))

    # -- the live log ------------------------------------------------------------------

    async def entries(
        self,
        combat_id: str,
        *,
        after: int | None = 0,
        on_reset: Callable[[], Awaitable[None] | None] | None = None,
    ) -> AsyncIterator[LogEntry]:
        """Every log entry after ``after`` (0: the whole log; None: only new ones), as it comes.

        ``Melee.entries``' rules: the stream, resumed with ``Last-Event-ID``; the long poll when it
        cannot be opened three times in a row; ``reset`` calls ``on_reset`` and delivers the log
        again from its first entry. Stop by leaving the ``async for`` (or cancelling its task).
        """
        last = await self._head(combat_id) if after is None else after
        failures = 0
        while True:
            try:
                if failures >= STREAM_ATTEMPTS:  # the long poll (its failures, too, wait longer each time)
                    page = await self.events(combat_id, after=last, wait=LONG_POLL_SECONDS)
                    if page.get(
                        "reset"
                    ):  # rolled back past ``last``: the log was rewritten, read it again from its start
                        await _reset(on_reset)
                        last = 0
                        continue
                    for entry in page["items"]:
                        last = entry["seq"]
                        yield entry
                    failures = STREAM_ATTEMPTS - 1  # one more try of the stream, then poll again
                    continue
                received = False
                async for kind, value in self._read_stream(combat_id, last):
                    if kind == "entry":
                        entry = cast(LogEntry, value)
                        last, received = entry["seq"], True
                        yield entry
                    elif kind == "reconnect":
                        received = True  # the server asks for it: at once
                    elif kind == "reset":
                        await _reset(on_reset)
                        last, received = 0, True  # the log was rewritten: all of it again
                        break
                if received:
                    failures = 0
                else:  # opened, then closed with nothing in it: wait before the next try
                    failures += 1
                    await asyncio.sleep(self.policy.delay(failures - 1, None))
            except (MeleeProblem, httpx.TransportError) as failure:
                if isinstance(failure, MeleeProblem) and failure.status not in (429, 503):
                    raise
                failures += 1
                await asyncio.sleep(self.policy.delay(failures - 1, getattr(failure, "retry_after", None)))

    def subscribe(
        self,
        combat_id: str,
        on_entry: Callable[[LogEntry], Awaitable[None] | None],
        *,
        on_error: Callable[[BaseException], None] | None = None,
        on_reset: Callable[[], Awaitable[None] | None] | None = None,
        after: int | None = 0,
    ) -> AsyncSubscription:
        """``entries`` in an asyncio task (call it from a running loop): ``on_entry`` for each; ``close()`` ends it."""

        async def follow() -> None:
            try:
                async for entry in self.entries(combat_id, after=after, on_reset=on_reset):
                    called = on_entry(entry)
                    if called is not None:
                        await called
            except asyncio.CancelledError:
                raise
            except Exception as failure:  # noqa: BLE001 - handed to the caller
                if on_error:
                    on_error(failure)

        return AsyncSubscription(asyncio.get_running_loop().create_task(follow(), name=f"melee-subscribe-{combat_id}"))

    # -- plumbing ------------------------------------------------------------------------

    async def _head(self, combat_id: str) -> int:
        return (await self.events(combat_id, after=0, limit=1))["last_seq"]

    async def _read_stream(self, combat_id: str, last: int) -> AsyncIterator[tuple[str, Any]]:
        url = f"{self.base_url}/combats/{segment(combat_id)}/stream"
        headers = {**base_headers(self.token, self.api_key, self.lang), **stream_headers(last)}
        timeout = httpx.Timeout(30.0, read=STREAM_READ_TIMEOUT)
        async with self._http.stream("GET", url, params={"after": last}, headers=headers, timeout=timeout) as response:
            if not is_event_stream(response):
                await response.aread()
                raise MeleeProblem.from_response(response)
            parser = SseParser()
            async for line in response.aiter_lines():
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

    async def _send(self, request: Request) -> Any:
        url = self.base_url + request.path
        headers = base_headers(self.token, self.api_key, self.lang) | request.headers
        timeout = httpx.USE_CLIENT_DEFAULT if request.timeout is None else request.timeout
        for attempt in range(self.policy.retries + 1):
            try:
                response = await self._http.request(
                    request.method, url, params=request.params, json=request.json, headers=headers, timeout=timeout
                )
                return decode(response)
            except (MeleeProblem, httpx.TransportError) as failure:
                if attempt >= self.policy.retries or not retryable(request.kind, failure):
                    if isinstance(failure, MeleeProblem):
                        failure.idempotency_key = request.headers.get("Idempotency-Key")
                    raise
                await asyncio.sleep(self.policy.delay(attempt, getattr(failure, "retry_after", None)))
        raise AssertionError("unreachable")  # pragma: no cover


async def _reset(on_reset: Callable[[], Awaitable[None] | None] | None) -> None:
    """The caller's ``on_reset``, awaited when it is a coroutine function."""
    if on_reset:
        called = on_reset()
        if called is not None:
            await called


class AsyncSubscription:
    """A running ``subscribe``: ``close()`` cancels its task; ``await wait()`` until it has ended."""

    def __init__(self, task: asyncio.Task[None]) -> None:
        self.task = task

    def close(self) -> None:
        self.task.cancel()

    async def wait(self) -> None:
        try:
            await self.task
        except asyncio.CancelledError:
            if not self.task.cancelled():
                raise
