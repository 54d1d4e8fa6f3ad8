"""Response shapes, for the OpenAPI document.

The use cases show combats as plain dicts (service/usecases/views.py); these schemas
describe them. Dumping returns the dict unchanged, so describing a response
costs nothing per request.
"""

from marshmallow import INCLUDE, RAISE, Schema, fields, validate


class Described(Schema):
    class Meta:
        unknown = INCLUDE

    def dump(self, obj, *, many=None):
        return obj


class Roll(Described):
    sides = fields.Integer(required=True)
    value = fields.Integer(required=True)
    purpose = fields.String(required=True)
    roller = fields.String(
        required=True, metadata={"description": "Whose roll it is at the table: a combatant's id, or 'gm'."}
    )
    source = fields.String(
        required=True,
        validate=validate.OneOf(["server", "gm", "player"]),
        metadata={"description": "Who supplied the die: the server, or the role of the token that sent it."},
    )
    stream = fields.Integer(
        metadata={"description": "Server dice: the stream (key) that drew it (docs/dice-audit.md)."}
    )
    draw = fields.Integer(metadata={"description": "Server dice: the counter value that gave it."})


class Event(Described):
    code = fields.String(required=True)
    params = fields.Dict(required=True)
    text = fields.String(required=True, metadata={"description": "The event as a sentence in the combat's language."})


class Awaiting(Described):
    actor = fields.String(required=True)
    actions = fields.List(fields.String(), required=True)
    reason = fields.String(required=True)


class Condition(Described):
    code = fields.String(required=True, metadata={"description": "What the condition is (stunned, grave_wound...)."})
    source = fields.String(required=True, metadata={"description": "Who set it: the rules, or the GM."})
    start = fields.Dict(metadata={"description": "When it began: {round}."})
    ends = fields.Dict(allow_none=True, metadata={"description": "When it ends by itself; null: until removed."})
    modifiers = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={"description": "Added to the bearer's rolls while it lasts."},
    )


class Combatant(Described):
    """What every combatant's state has; each ruleset's own fields are in state.py."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    side = fields.String(required=True)
    conditions = fields.List(fields.Nested(Condition), required=True)
    sheet = fields.Dict(
        metadata={
            "description": (
                "The sheet as created, less id, name, side and starting health; absent for sheets the GM hides."
            )
        }
    )


class Combat(Described):
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["active", "over"]))
    round = fields.Integer(required=True)
    lang = fields.String(required=True)
    options = fields.Dict(required=True)
    combatants = fields.List(fields.Nested(Combatant), required=True)
    awaiting = fields.List(
        fields.Nested(Awaiting),
        required=True,
        metadata={"description": "Who the engine waits for, and which action types each may send."},
    )
    expires_at = fields.String(
        required=True, metadata={"description": "When the combat expires unless it changes (ISO 8601)."}
    )
    seed = fields.Integer(metadata={"description": "The seed the creator gave, revealed once the fight is over."})
    dice_commitments = fields.List(
        fields.Dict(),
        required=True,
        metadata={
            "description": (
                "`{stream, sha256}`: the SHA-256 of each stream's key of the server's dice, published before any die."
            )
        },
    )
    dice_secrets = fields.List(
        fields.Dict(),
        metadata={"description": "`{stream, key}`: the keys, revealed once the fight is over (docs/dice-audit.md)."},
    )


class Tokens(Described):
    gm = fields.String(required=True, metadata={"description": "The game master's token."})
    combatants = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={"description": "One token per combatant id."},
    )


class CreatedCombat(Combat):
    tokens = fields.Nested(
        Tokens, required=True, metadata={"description": "Shown once: keep them. Redis stores only their digests."}
    )


class RestoredCombat(Described):
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The version of its `restored` log entry."})


class Snapshot(Described):
    snapshot = fields.String(
        required=True,
        metadata={
            "description": "The sealed snapshot: opaque, encrypted and authenticated; POST /combats restores it."
        },
    )


class RestoreCombat(Schema):
    """The body of POST /combats that restores a snapshot: the snapshot, alone."""

    class Meta:
        unknown = RAISE

    snapshot = fields.String(
        required=True,
        validate=validate.Length(min=1),
        metadata={"description": "A snapshot from GET /combats/{id}/snapshot, as it was answered."},
    )


class TokenRequest(Schema):
    role = fields.String(required=True, validate=validate.OneOf(["gm", "player"]))
    combatant = fields.String(load_default=None, metadata={"description": "The combatant a player token acts for."})


class TokenInfo(Described):
    id = fields.String(required=True, metadata={"description": "Public name of the token, to revoke it."})
    role = fields.String(required=True)
    combatant = fields.String(allow_none=True, required=True)


class MintedToken(TokenInfo):
    token = fields.String(required=True, metadata={"description": "Shown once."})


class ActionSummary(Described):
    seq = fields.Integer(required=True)
    type = fields.String(required=True)
    actor = fields.String(required=True)


class ActionResult(Described):
    action = fields.Nested(ActionSummary, required=True)
    rolls = fields.List(fields.Nested(Roll), required=True)
    events = fields.List(fields.Nested(Event), required=True)
    combat = fields.Nested(Combat, required=True)
    tokens = fields.Nested(
        Schema.from_dict(
            {"combatants": fields.Dict(keys=fields.String(), values=fields.String())}, name="NewcomerTokens"
        ),
        metadata={"description": "After the GM's join: the newcomer's player token, shown once."},
    )


class LogEntry(Described):
    seq = fields.Integer(required=True)
    action = fields.Dict(required=True)
    rolls = fields.List(fields.Nested(Roll), required=True)
    events = fields.List(fields.Nested(Event), required=True)


class LogPage(Described):
    items = fields.List(fields.Nested(LogEntry), required=True)
    next_after = fields.Integer(
        allow_none=True, required=True, metadata={"description": "Pass as `after` for the next page; null at the end."}
    )
    last_seq = fields.Integer(required=True)
    reset = fields.Boolean(
        required=True,
        metadata={
            "description": "True when `after` is past the newest seq: the server lost entries this client had "
            "read (a store rollback) and their seqs will be reused. Reload the combat and its log from 0 "
            "(docs/vtt.md)."
        },
    )


# A log position (seq, version) a client may name: no log grows this long,
# and every JSON reader holds it exactly (2^53 - 1).
MAX_SEQ = 2**53 - 1


def seq_query(**kwargs) -> fields.Integer:
    """An ``after=`` query parameter: a seq from 0 to MAX_SEQ."""
    return fields.Integer(validate=validate.Range(0, MAX_SEQ), **kwargs)


def parse_seq(text: str) -> int | None:
    """A seq sent as text (Last-Event-ID), or None when it is not one (not digits, beyond MAX_SEQ)."""
    text = text.strip()
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(MAX_SEQ))):
        return None
    value = int(text)
    return value if value <= MAX_SEQ else None


class EventsQuery(Schema):
    after = seq_query(load_default=0)
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))
    wait = fields.Integer(
        load_default=0,
        validate=validate.Range(0, 25),
        metadata={
            "description": "Long poll: wait up to this many seconds for an entry after `after` (0: answer at once)."
        },
    )


class OutcomeOdds(Described):
    outcome = fields.String(
        required=True,
        metadata={"description": "The outcome class, e.g. 'miss', 'hit', 'critical hit', 'wound grave', 'death'."},
    )
    probability = fields.Float(required=True)
    fraction = fields.String(metadata={"description": "Exact: the probability as a fraction."})
    standard_error = fields.Float(metadata={"description": "Monte Carlo: the standard error of the probability."})


class ExpectedDamage(Described):
    combatant = fields.String(required=True)
    damage = fields.Float(
        required=True, metadata={"description": "Expected health lost (pv; blessures in age-du-silicium)."}
    )
    standard_error = fields.Float(metadata={"description": "Monte Carlo only."})


class Odds(Described):
    method = fields.String(required=True, validate=validate.OneOf(["exact", "monte_carlo"]))
    leaves = fields.Integer(metadata={"description": "Exact: the outcomes of the dice enumerated."})
    runs = fields.Integer(metadata={"description": "Monte Carlo: the runs."})
    seed = fields.Integer(metadata={"description": "Monte Carlo: the seed of the runs."})
    outcomes = fields.List(fields.Nested(OutcomeOdds), required=True)
    expected_damage = fields.List(fields.Nested(ExpectedDamage), required=True)
    assumed_answers = fields.List(
        fields.Dict(),
        required=True,
        metadata={"description": "The default answers assumed (on the first outcome of the dice)."},
    )


class RulesetSummary(Described):
    id = fields.String(required=True)
    name = fields.String(required=True)
    language = fields.String(required=True)
    seed = fields.String(required=True)
    summary = fields.String(required=True)


class RulesetDetail(RulesetSummary):
    sheet = fields.Dict(required=True, metadata={"description": "JSON Schema of a combatant in POST /combats."})
    options = fields.Dict(required=True, metadata={"description": "JSON Schema of the options."})
    option_defaults = fields.Dict(required=True)
    labels = fields.Dict(
        required=True,
        metadata={
            "description": "Language (en, fr, pt) -> parameter name -> value id -> the words the narration uses for it "
            "(a weapon, a maneuver, a hit location...), for a client's menus."
        },
    )
    actions = fields.Dict(
        required=True,
        metadata={
            "description": (
                "JSON Schema of each action type. A field that is not the acting combatant's to decide carries "
                "x-decided-by and x-rule (the seed's words); the fields inside an object share its owner unless "
                "they carry their own."
            )
        },
    )
    decided_by = fields.Dict(
        required=True,
        metadata={
            "description": (
                "Action type -> field path (defense.modifier) -> who may set it: 'actor' (the acting combatant's "
                "token), 'gm' (the game master's token only), or the name of the field naming the combatant who "
                "answers (target: the target's token). The GM's token may set everything."
            )
        },
    )
    catalog = fields.Dict(required=True)
    example = fields.Dict(
        required=True, metadata={"description": "A creation body and a sequence of actions that plays."}
    )


class Problem(Described):
    type = fields.String(
        required=True, metadata={"description": "URI of the kind of problem; GET it for its description."}
    )
    title = fields.String(
        required=True,
        metadata={"description": "A summary of the kind of problem, in the language Content-Language names."},
    )
    status = fields.Integer(required=True)
    detail = fields.String(
        required=True,
        metadata={
            "description": "This occurrence in a sentence to show, in the language Content-Language names "
            "(Accept-Language, else the combat's); decide on type, never on these words."
        },
    )
    errors = fields.List(
        fields.Dict(),
        metadata={
            "description": "One {pointer, detail} per bad field; pointer is a JSON Pointer into the body, "
            "detail a sentence in the language of detail."
        },
    )


class Health(Described):
    status = fields.String(required=True)
