"""The app's JSON provider (service/app.py): Flask's public provider API, its compact answers by orjson.

It relies on Flask's ``DefaultJSONProvider.response`` asking ``dumps`` for
``separators=(",", ":")`` when it writes compact JSON. If a Flask upgrade
changes that call, the answers are still right (Flask's json writes them)
but no longer orjson's: the first test fails and says so.
"""

from __future__ import annotations

from flask import jsonify

from service import app as app_module


def test_flask_asks_dumps_for_compact_json_and_orjson_writes_it(app, monkeypatch):
    calls = []
    encode = app_module.codec.dumps_text

    def spy(*args, **kwargs):
        calls.append(args[0])
        return encode(*args, **kwargs)

    monkeypatch.setattr(app_module.codec, "dumps_text", spy)
    with app.test_request_context("/rulesets"):
        answer = jsonify({"texte": "déjà", "n": 1.5})
    assert answer.get_data() == '{"texte":"déjà","n":1.5}\n'.encode()
    assert calls == [{"texte": "déjà", "n": 1.5}], "Flask's response no longer calls dumps(separators=(',', ':'))"


def test_any_other_dumps_is_flasks(app, monkeypatch):
    monkeypatch.setattr(app_module.codec, "dumps_text", None)  # not called
    with app.app_context():
        assert app.json.dumps({"a": [1, 2]}) == '{"a": [1, 2]}'
        assert app.json.dumps({"a": 1}, indent=2) == '{\n  "a": 1\n}'
