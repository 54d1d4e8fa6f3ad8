"""Problems said in the reader's language: Accept-Language, else the combat's, else English.

The machine fields (type, status, the pointers, the ids) read the same in every language;
Content-Language names the language of title and detail.
"""

from ..helpers import create

UNKNOWN_ACTOR = {"type": "attack", "actor": "zed", "target": "capanga"}


def example(client, ruleset: str) -> dict:
    return client.get(f"/rulesets/{ruleset}").get_json()["example"]


def refused(client, location: str, action: dict, headers: dict | None = None):
    response = client.post(f"{location}/actions", json=action, headers=headers or {})
    return response, response.get_json()


def test_a_refusal_in_a_portuguese_combat_reads_in_portuguese(client):
    location, before = create(client, example(client, "sistema-2d6")["combat"])  # lang "pt"
    response, problem = refused(client, location, UNKNOWN_ACTOR)
    assert response.status_code == 422
    assert response.headers["Content-Language"] == "pt-BR"
    assert problem["type"] == "/problems/invalid-action"
    assert problem["title"] == "As regras recusam esta ação"
    assert problem["detail"] == "não há nenhum combatente “zed” neste combate"
    assert problem["errors"] == [{"pointer": "/actor", "detail": "não há nenhum combatente “zed” neste combate"}]
    assert client.get(location).get_json()["version"] == before["version"]


def test_accept_language_wins_over_the_combat_language(client):
    location, _ = create(client, example(client, "sistema-2d6")["combat"])  # lang "pt"
    response, problem = refused(client, location, UNKNOWN_ACTOR, {"Accept-Language": "fr-CA,fr;q=0.9"})
    assert response.headers["Content-Language"] == "fr"
    assert problem["title"] == "Les règles refusent cette action"
    assert problem["detail"] == "il n'y a aucun combattant « zed » dans ce combat"
    assert problem["errors"][0]["pointer"] == "/actor"

    response, problem = refused(client, location, UNKNOWN_ACTOR, {"Accept-Language": "en-US, fr;q=0.5"})
    assert response.headers["Content-Language"] == "en"
    assert problem["title"] == "The rules refuse this action"
    assert problem["detail"] == "there is no combatant 'zed' in this combat"


def test_a_language_the_service_does_not_speak_keeps_the_combat_language(client):
    location, _ = create(client, example(client, "sistema-2d6")["combat"])  # lang "pt"
    for header in ("de", "*", "de, *;q=0.5"):
        response, problem = refused(client, location, UNKNOWN_ACTOR, {"Accept-Language": header})
        assert response.headers["Content-Language"] == "pt-BR", header
        assert problem["detail"] == "não há nenhum combatente “zed” neste combate", header


def test_brazilian_portuguese_is_portuguese_and_names_stay_as_typed(client):
    body = example(client, "sistema-2d6")
    location, _ = create(client, {**body["combat"], "lang": "en"})
    gone = {"type": "leave", "actor": "gm", "target": "capanga"}
    assert client.post(f"{location}/actions", json=gone).status_code == 200
    action = {"type": "attack", "actor": "capanga", "target": "ana"}
    response, problem = refused(client, location, action, {"Accept-Language": "pt-BR"})
    assert response.headers["Content-Language"] == "pt-BR"
    assert problem["type"] == "/problems/action-not-allowed"
    assert problem["detail"] == "Capanga saiu do combate"
    assert problem["errors"] == [{"pointer": "/actor", "detail": "Capanga saiu do combate"}]


def test_marshmallow_messages_read_in_the_reader_language(client):
    location, _ = create(client, example(client, "sistema-2d6")["combat"])  # lang "pt"
    action = {"type": "attack", "actor": "ana", "target": "capanga", "bogus": 1}
    response, problem = refused(client, location, action)
    assert response.status_code == 422
    assert response.headers["Content-Language"] == "pt-BR"
    assert problem["title"] == "Requisição inválida"
    assert problem["errors"] == [{"pointer": "/bogus", "detail": "Campo desconhecido."}]
    assert problem["detail"] == "/bogus: Campo desconhecido."

    response, problem = refused(client, location, {"type": "attack", "actor": "ana"}, {"Accept-Language": "fr"})
    assert problem["title"] == "Requête invalide"
    assert problem["errors"] == [{"pointer": "/target", "detail": "Ce champ est obligatoire."}]


def test_without_a_combat_or_a_language_a_problem_is_english(client):
    response = client.post("/combats", json={"ruleset": "sistema-2d6"})
    assert response.status_code == 422
    assert response.headers["Content-Language"] == "en"
    assert response.get_json()["title"] == "Invalid request"


def test_a_french_combat_says_who_decides_and_the_rule_in_french(client):
    location, _ = create(client, example(client, "dark-earth")["combat"])  # lang "fr"
    combat_id = location.rsplit("/", 1)[1]
    kael = {"Authorization": f"Bearer {client.tokens[combat_id]['combatants']['kael']}"}
    action = {"type": "allocate", "actor": "kael", "target": "goule", "split": {"init": 2, "att": 3, "def": 2}}
    response, problem = refused(client, location, {**action, "dice_modifier": 2}, kael)
    assert response.status_code == 403
    assert response.headers["Content-Language"] == "fr"
    assert problem["type"] == "/problems/not-your-decision"
    assert problem["title"] == "Ce n'est pas à vous d'en décider"
    assert problem["detail"] == (
        "dice_modifier est fixé par le meneur de jeu (le combattant annonce sa manœuvre (« les combattants "
        "annoncent s'ils souhaitent utiliser une manœuvre ») ; le meneur de jeu décide des dés qu'elle vaut) ; "
        "envoyez-le avec le jeton du meneur de jeu"
    )
    assert problem["errors"][0]["pointer"] == "/dice_modifier"


def test_a_dark_earth_refusal_reads_in_the_reader_language(client):
    location, before = create(client, example(client, "dark-earth")["combat"])  # lang "fr"
    action = {"type": "allocate", "actor": "kael", "target": "kael", "split": {"init": 2, "att": 3, "def": 2}}
    response, problem = refused(client, location, action)
    assert response.status_code == 422
    assert problem["detail"] == "un combattant ne peut pas s'attaquer lui-même"
    response, problem = refused(client, location, action, {"Accept-Language": "pt-BR,pt;q=0.8"})
    assert problem["title"] == "As regras recusam esta ação"
    assert problem["detail"] == "um combatente não pode atacar a si mesmo"
    assert problem["errors"] == [{"pointer": "/target", "detail": "um combatente não pode atacar a si mesmo"}]
    assert client.get(location).get_json()["version"] == before["version"]


def test_the_service_own_problems_read_in_the_reader_language(client):
    response = client.get("/rulesets/chess", headers={"Accept-Language": "pt-BR"})
    assert response.status_code == 404
    assert response.headers["Content-Language"] == "pt-BR"
    problem = response.get_json()
    assert problem["type"] == "/problems/not-found"
    assert problem["title"] == "Sistema de regras não encontrado"
    assert problem["detail"].startswith("nenhum sistema de regras “chess”; opções: ")


def test_a_token_refusal_reads_in_the_combat_language(client):
    location, _ = create(client, example(client, "dark-earth")["combat"])  # lang "fr"
    combat_id = location.rsplit("/", 1)[1]
    kael = {"Authorization": f"Bearer {client.tokens[combat_id]['combatants']['kael']}"}
    response = client.post(f"{location}/actions", json={"type": "pass", "actor": "goule"}, headers=kael)
    assert response.status_code == 403
    problem = response.get_json()
    assert response.headers["Content-Language"] == "fr"
    assert problem["title"] == "Interdit"
    assert problem["detail"] == "ce jeton n'agit que pour « kael », pas pour « goule »"
    assert problem["errors"] == [
        {"pointer": "/actor", "detail": "ce jeton n'agit que pour « kael », pas pour « goule »"}
    ]


def test_an_unusable_body_reads_in_the_reader_language(client):
    deep = "[" * 40 + "]" * 40
    response = client.post("/combats", data=deep, headers={"Content-Type": "application/json", "Accept-Language": "fr"})
    assert response.status_code == 400 and response.headers["Content-Language"] == "fr"
    problem = response.get_json()
    assert problem["type"] == "/problems/invalid-json"
    assert problem["title"] == "Corps JSON inutilisable"
    assert problem["detail"] == "le corps imbrique plus de 32 niveaux d'objets et de tableaux"


def test_a_refused_creation_reads_in_the_language_the_body_asks_for(client):
    body = example(client, "dark-earth")["combat"]
    kael = {**body["combatants"][0]}
    kael["weapons"] = kael["weapons"] * 2  # the same weapon id twice
    response = client.post("/combats", json={**body, "lang": "pt", "combatants": [kael, *body["combatants"][1:]]})
    assert response.status_code == 422 and response.headers["Content-Language"] == "pt-BR"
    problem = response.get_json()
    assert problem["title"] == "Requisição inválida"
    assert {"pointer": "/combatants/0/weapons", "detail": "os ids das armas devem ser únicos"} in problem["errors"]


def test_a_range_refusal_reads_whole_in_the_reader_language(client):
    # marshmallow's range message also starts like its "at least" one: the whole of it is said.
    body = example(client, "duel-2d6")["combat"]
    body = {**body, "lang": "fr", "combatants": [{**body["combatants"][0], "pv": 9999}, *body["combatants"][1:]]}
    body.pop("seed", None)
    problem = client.post("/combats", json=body).get_json()
    assert {"pointer": "/combatants/0/pv", "detail": "Doit être compris entre 1 et 200."} in problem["errors"]
    english = client.post("/combats", json=body, headers={"Accept-Language": "en"}).get_json()
    detail = "Must be greater than or equal to 1 and less than or equal to 200."
    assert {"pointer": "/combatants/0/pv", "detail": detail} in english["errors"]


def test_the_log_and_a_refusal_follow_one_rule_for_the_reader_language(client):
    # "en-US, fr;q=0.5" prefers English: a regional tag counts for its language (werkzeug's
    # best_match alone would have taken French, the only exact match, for the log).
    location, _ = create(client, example(client, "sistema-2d6")["combat"])  # lang "pt"
    reader = {"Accept-Language": "en-US,fr;q=0.5"}
    response, problem = refused(client, location, UNKNOWN_ACTOR, reader)
    assert response.headers["Content-Language"] == "en"
    assert problem["detail"] == "there is no combatant 'zed' in this combat"
    (entry,) = client.get(f"{location}/events?after=0&limit=1", headers=reader).get_json()["items"]
    assert entry["events"][0]["text"].startswith("The fight begins")
