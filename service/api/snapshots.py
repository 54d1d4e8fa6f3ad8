"""/combats/<id>/snapshot: save a combat (game master), and its restore by
``POST /combats`` with ``{"snapshot": ...}`` (usecases/snapshots.py)."""

from __future__ import annotations

from flask import Response, url_for
from flask.views import MethodView
from flask_smorest import Blueprint

from ..usecases import snapshots
from ..usecases.idempotency import KeyFence, KeyReused, ReplayUnavailable, RequestInFlight
from . import schemas
from .access import bearer_token
from .idempotency import refused, replayed_response
from .requests import sealing, store
from .views import etag

blp = Blueprint("snapshots", __name__, url_prefix="/combats", description="Save a combat and resume it later.")
BEARER: list[dict[str, list[str]]] = [{"bearer": []}]


@blp.route("/<combat_id>/snapshot")
class Snapshot(MethodView):
    @blp.doc(
        operationId="getSnapshot",
        summary="Save the combat as a sealed snapshot (game master)",
        description=(
            "Game master only. The whole combat (its state, log, history, dice secrets and the digests of its "
            "tokens), compressed, encrypted and authenticated under the server's key: an opaque string that "
            'POST /combats takes back as `{"snapshot": ...}` to resume the combat under the same id, with the '
            "same tokens (but those revoked since), once it is gone. Nobody can read it or change it, the GM "
            "included. A snapshot restores for MAX_SNAPSHOT_AGE_DAYS (30 days by default)."
        ),
        security=BEARER,
    )
    @blp.response(200, schemas.Snapshot)
    def get(self, combat_id):
        sealer = sealing().snapshot_sealer(to_seal=True)
        # no-store: whoever holds a snapshot may bring the combat back once it is gone.
        taken = snapshots.take(store(), combat_id, bearer_token(), sealer)
        return {"snapshot": taken}, 200, {"Cache-Control": "no-store"}


def restored(body: dict, fence: KeyFence | None) -> Response | tuple[dict, int, dict]:
    """POST /combats with a snapshot: the combat as restored (201), as the bearer token (one of the
    combat's own, which work again) shows it, else only its id, ruleset and version."""
    asked = schemas.RestoreCombat().load(body)
    try:
        done = snapshots.restore(store(), asked["snapshot"], sealing().snapshot_sealer(), bearer_token(), fence=fence)
    except (RequestInFlight, KeyReused, ReplayUnavailable) as error:
        return refused(error)
    headers = {"Location": url_for("combats.Combat", combat_id=done.state["id"]), "ETag": etag(done.state)}
    return replayed_response(done.combat, 201, headers) if done.replayed else (done.combat, 201, headers)
