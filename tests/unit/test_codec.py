"""service/codec.py: orjson, with the standard library for what orjson refuses."""

import pytest

from service import codec
from service.api.bodies import UnusableJson, parse


def test_written_as_compact_utf8_in_key_order():
    assert codec.dumps({"b": 1, "a": ["é", None, True, 2.5]}) == '{"b":1,"a":["é",null,true,2.5]}'.encode()


def test_what_orjson_refuses_is_written_by_the_standard_library():
    # Keys that are not strings, integers beyond 64 bits: json.dumps's output.
    assert codec.dumps({1: "x", None: 2}) == b'{"1":"x","null":2}'
    assert codec.dumps([2**64]) == b"[18446744073709551616]"


def test_read_back_as_written():
    assert codec.loads(b'{"a":[1,2.5,"\\u00e9"],"a2":{}}') == {"a": [1, 2.5, "é"], "a2": {}}
    assert codec.loads('{"a":1,"a":2}') == {"a": 2}  # the last duplicate wins, as in json.loads


def test_what_orjson_cannot_read_is_read_by_the_standard_library():
    assert codec.loads(b'{"n": NaN}')["n"] != codec.loads(b'{"n": NaN}')["n"]  # json.loads reads NaN


@pytest.mark.parametrize("number", [str(2**64), str(-(2**63) - 1), "1" * 30])
def test_a_body_integer_beyond_64_bits_is_refused_though_orjson_reads_it_as_a_float(number):
    with pytest.raises(UnusableJson, match=r"beyond ±9223372036854775807 \(2\^63 - 1\)"):
        parse(f'{{"modifier": {number}}}'.encode())


def test_a_body_float_is_the_standard_librarys_reading():
    assert parse(b'{"x": 1.5, "y": [0.1, 1e-05]}') == {"x": 1.5, "y": [0.1, 1e-05]}
