"""What a sentence players read must never contain, and how to find it.

``faults(text, lang, params, names)`` lists what is wrong with one rendered
event; the lists below are maintained by hand: add a word when a review finds
it leaking, a noun when it is counted in some sentence.
"""

from __future__ import annotations

import re

from babel import Locale

# English words that have no place in French or Portuguese prose.
ENGLISH_WORDS = {
    "success",
    "successes",
    "failure",
    "failures",
    "round",
    "rounds",
    "hit",
    "hits",
    "damage",
    "wound",
    "wounds",
    "dodge",
    "parry",
    "yes",
    "the",
    "and",
    "with",
    "critical",
    "fumble",
    "none",
    "attack",
    "attacks",
    "shot",
    "shots",
    "weapon",
    "dice",
    "true",
    "false",
    "flight",
    "surrender",
    "removed",
    "melee",
    "ranged",
    "armour",
    "torso",
    "head",
    "arm",
    "leg",
    "cornered",
    "stunned",
    "prone",
}
# Words of another language of the table that leaked into this one.
FOREIGN_WORDS = {
    "en": {"PV", "tour", "tours", "réussite", "échec", "sucesso", "falha", "rodada"},
    "fr": ENGLISH_WORDS | {"rodada", "sucesso", "falha", "tiro", "dano"},
    "pt": (ENGLISH_WORDS - {"no"})
    | {"tour", "tours", "Blessure", "Blessures", "Initiative", "réussite", "échec", "dommages", "tir"},
}
# Counted nouns: singular -> plural. A number before either form must agree (CLDR rules).
NOUNS = {
    "en": {
        "round": "rounds",
        "hour": "hours",
        "time": "times",
        "success": "successes",
        "failure": "failures",
        "point": "points",
        "die": "dice",
        "shot": "shots",
        "action": "actions",
        "burst": "bursts",
        "minute": "minutes",
        "opponent": "opponents",
        "bullet": "bullets",
        "turn": "turns",
        "step": "steps",
    },
    "fr": {
        "tour": "tours",
        "heure": "heures",
        "réussite": "réussites",
        "échec": "échecs",
        "point": "points",
        "dé": "dés",
        "tir": "tirs",
        "action": "actions",
        "rafale": "rafales",
        "minute": "minutes",
        "blessure": "blessures",
        "adversaire": "adversaires",
        "balle": "balles",
        "cran": "crans",
    },
    "pt": {
        "rodada": "rodadas",
        "hora": "horas",
        "sucesso": "sucessos",
        "falha": "falhas",
        "ponto": "pontos",
        "dado": "dados",
        "tiro": "tiros",
        "ação": "ações",
        "rajada": "rajadas",
        "minuto": "minutos",
        "ferimento": "ferimentos",
        "oponente": "oponentes",
        "bala": "balas",
        "vez": "vezes",
        "passo": "passos",
    },
}
PYTHON = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|[{}]|'[A-Za-z_]\w*'")
SNAKE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
EMPTY_SLOT = re.compile(r":\s*[.;)]|\(\s*\)|\(\s*,|,\s*[,.)]|:\s*$|\s[.,]|\S {2,}\S|:\s*→")
GUESSED_PLURAL = re.compile(r"\w\((s|es|e|as|os)\)")
# A flag shown as yes/no ("critical: no") instead of a sentence that says it.
YES_NO_SLOT = re.compile(r"([:(]|\w) (yes|no|oui|non|sim|não)\s*([).,;]|$)")
COUNTED = re.compile(r"(?<![\w.])(\d+) (\w+)")
ID_LIKE = re.compile(r"^[a-z][a-z0-9]*$")
# Params whose values are the users' own words (shown as they typed them).
# (event code, param): an id as the user sent it, shown because it matches nothing.
AS_SENT = {("surprise_ignored", "combatant")}
FREE_TEXT = {"side", "reason", "weapon_name", "skill", "name", "item_name", "tag", "description", "expression"}


def without_names(text: str, params: dict, names: dict[str, str]) -> str:
    """``text`` with the names and the users' own words out ("Nom", "Texte"): what is left is the sentence's."""
    for name in sorted(set(names.values()), key=len, reverse=True):
        text = text.replace(name, "Nom")
    for key in FREE_TEXT:
        if isinstance(params.get(key), str) and params[key]:
            text = text.replace(params[key], "Texte")
    return text


def faults(
    text: str, lang: str, code: str, params: dict, names: dict[str, str], labels: dict[str, dict[str, str]]
) -> list[str]:
    """What is wrong with ``text``; ``labels`` (param -> id -> words in ``lang``): the ids that have words."""
    found = []
    readable = without_names(text, params, names)
    for what, pattern in (
        ("Python value", PYTHON),
        ("snake_case id", SNAKE),
        ("empty slot", EMPTY_SLOT),
        ("yes/no slot", YES_NO_SLOT),
        ("guessed plural", GUESSED_PLURAL),
    ):
        match = pattern.search(readable)
        if match:
            found.append(f"{what}: {match.group()!r}")
    words = set(re.findall(r"[\wÀ-ÿ]+", readable))
    # Case counts: capitalised names (Tir simple) and abbreviations (TIR, DEG)
    # are the games' own terms, shown as the seed names them.
    foreign = sorted(w for w in words if w in FOREIGN_WORDS[lang])
    if foreign:
        found.append(f"foreign words: {foreign}")
    plural_form = Locale.parse(lang).plural_form
    singular_of = {plural: singular for singular, plural in NOUNS[lang].items()}
    for number, noun in COUNTED.findall(readable):
        one = plural_form(int(number)) == "one"
        if one and noun in singular_of or not one and noun in NOUNS[lang]:
            found.append(f"plural: {number} {noun}")
    for key, value in params.items():
        values = value if isinstance(value, list) else [value]
        for item in values:
            if (
                isinstance(item, str)
                and key not in FREE_TEXT
                and (code, key) not in AS_SENT
                and item not in labels.get(key, {})
                and f"weapon:{item}" not in names
                and ID_LIKE.match(item)
                and re.search(rf"(?<![\wÀ-ÿ]){re.escape(item)}(?![\wÀ-ÿ'’])", readable)
            ):
                found.append(f"raw id {key}={item!r}")
    return found
