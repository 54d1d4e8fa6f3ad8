"""Events: machine-readable facts (``code`` + ``params``) with a sentence.

Events are stored without text; the sentence is rendered when read, in the
combat's language, from the ruleset's message catalogue. Parameters that
name combatants hold ids and are shown by name.
"""

from __future__ import annotations

from collections.abc import Mapping

COMBATANT_PARAMS = frozenset({"actor", "target", "attacker", "defender", "combatant", "healer"})

COMMON_MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "combat_started": "The fight begins ({ruleset}).",
        "round_started": "Round {round} begins.",
        "combat_ended": "The game master ends the fight.",
        "turn_order": "Order of action: {order}.",
        "action_undone": "The game master takes back action {seq}.",
        "action_redone": "The game master plays action {seq} again.",
        "condition_expired": "{combatant} is no longer {condition}.",
        "value_adjusted": "The game master sets {target}'s {value} from {old} to {new}.",
        "modifier_applied": "The game master gives {target} {value:+d} on rolls ({rounds} rounds; none: the next roll).",
        "result_overridden": "The game master decides {target}'s next roll is a {result}.",
        "condition_added": "The game master makes {target} {condition}.",
        "condition_removed": "{target} is no longer {condition}.",
        "joined": "{combatant} joins the fight ({side}).",
        "left_fight": "{target} leaves the fight ({how}).",
        "combat_summary": "The fight lasted {rounds} rounds: {actions} actions, {rolls} dice rolled; dead: {deaths}.",
    },
    "fr": {
        "combat_started": "Le combat commence ({ruleset}).",
        "round_started": "Le tour {round} commence.",
        "combat_ended": "Le meneur de jeu met fin au combat.",
        "turn_order": "Ordre d'action : {order}.",
        "action_undone": "Le meneur de jeu annule l'action {seq}.",
        "action_redone": "Le meneur de jeu rejoue l'action {seq}.",
        "condition_expired": "{combatant} n'est plus {condition}.",
        "value_adjusted": "Le meneur de jeu fait passer {value} de {target} de {old} à {new}.",
        "modifier_applied": "Le meneur de jeu donne {value:+d} aux jets de {target} ({rounds} tours ; aucun : le prochain jet).",
        "result_overridden": "Le meneur de jeu décide que le prochain jet de {target} est un(e) {result}.",
        "condition_added": "Le meneur de jeu rend {target} {condition}.",
        "condition_removed": "{target} n'est plus {condition}.",
        "joined": "{combatant} entre dans le combat ({side}).",
        "left_fight": "{target} quitte le combat ({how}).",
        "combat_summary": "Le combat a duré {rounds} tours : {actions} actions, {rolls} dés lancés ; morts : {deaths}.",
    },
    "pt": {
        "combat_started": "O combate começa ({ruleset}).",
        "round_started": "A rodada {round} começa.",
        "combat_ended": "O mestre encerra o combate.",
        "turn_order": "Ordem de ação: {order}.",
        "action_undone": "O mestre desfaz a ação {seq}.",
        "action_redone": "O mestre refaz a ação {seq}.",
        "condition_expired": "{combatant} não está mais {condition}.",
        "value_adjusted": "O mestre muda {value} de {target} de {old} para {new}.",
        "modifier_applied": "O mestre dá {value:+d} às rolagens de {target} ({rounds} rodadas; nenhuma: a próxima rolagem).",
        "result_overridden": "O mestre decide que a próxima rolagem de {target} é um(a) {result}.",
        "condition_added": "O mestre deixa {target} {condition}.",
        "condition_removed": "{target} não está mais {condition}.",
        "joined": "{combatant} entra no combate ({side}).",
        "left_fight": "{target} deixa o combate ({how}).",
        "combat_summary": "O combate durou {rounds} rodadas: {actions} ações, {rolls} dados rolados; mortos: {deaths}.",
    },
}


def event(code: str, **params) -> dict:
    return {"code": code, "params": params}


YES_NO = {"en": ("yes", "no"), "fr": ("oui", "non"), "pt": ("sim", "não")}


def _shown(key: str, value, names: Mapping[str, str], lang: str):
    if key in COMBATANT_PARAMS and isinstance(value, str):
        return names.get(value, value)
    if key == "order" and isinstance(value, list):
        return " > ".join(" = ".join(names.get(i, i) for i in group) for group in value)
    if isinstance(value, bool):
        yes, no = YES_NO.get(lang, YES_NO["en"])
        return yes if value else no
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return value


def render(
    entry: Mapping, lang: str, catalogues: Mapping[str, Mapping[str, str]], names: Mapping[str, str]
) -> str:
    """The event's sentence in ``lang``, falling back to English, then to the code."""
    templates = catalogues.get(lang) or catalogues["en"]
    template = templates.get(entry["code"]) or catalogues["en"].get(entry["code"])
    if template is None:
        return entry["code"]
    shown = {key: _shown(key, value, names, lang) for key, value in entry["params"].items()}
    try:
        return template.format_map(shown)
    except (KeyError, IndexError, ValueError):
        return entry["code"]
