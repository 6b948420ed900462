"""No input crashes the interpreter or escapes as anything but Error (input)
or TypeError (argument types): arbitrary text and bytes into every reader,
mutated valid inputs, and wrong argument types."""

import pytest
from hypothesis import given, strategies as st

import shardbridge as sb

SEEDS = [
    "{devices=[4,2]<=[2,4]T(1,0)}", "{devices=[2,2]0,2,1,3}", "{mesh['x'=2,'y'=4], [{'y'}, {'x'}]}",
    "{{replicated}, {maximal device=1}}", '{devices=[2]<=[2] metadata={op_name="a"}}',
    '#sdy.sharding<@mesh, [{"x", ?}p1, {}], replicated={"y"}>', '<["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>',
]


def mutate(seed, data):
    s = list(seed)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(s)))
        op = data.draw(st.sampled_from(["ins", "del", "dup"]))
        if op == "ins":
            s.insert(i, data.draw(st.sampled_from(list("{}[]<>=,:()'\"?0129xT -") + ["\\22", "\x00", "é"])))
        elif op == "del" and i < len(s):
            del s[i]
        elif i < len(s):
            s.insert(i, s[i] * 3)
    return "".join(s)


READERS = [
    lambda t: sb.HloSharding.parse(t),
    lambda t: sb.TensorSharding.parse(t),
    lambda t: sb.TensorSharding.parse(t, '<["x"=2, "y"=4]>'),
    lambda t: sb.Mesh.parse(t),
    lambda t: sb.to_sdy(t),
    lambda t: sb.to_hlo(t, '<["x"=2, "y"=4]>'),
    lambda t: sb.list_shardings(t),
    lambda t: sb.HloSharding.from_proto(t.encode(), "text"),
    lambda t: sb.HloSharding.from_proto(t.encode(), "json"),
]


def run_all(text):
    for read in READERS:
        try:
            read(text)
        except sb.Error as e:
            assert e.diagnostic and (e.offset is None or 0 <= e.offset <= len(text.encode()))


@given(st.sampled_from(SEEDS), st.data())
def test_mutated_inputs(seed, data):
    run_all(mutate(seed, data))


@given(st.text(max_size=40))
def test_arbitrary_text(text):
    run_all(text)


@given(st.binary(max_size=64))
def test_arbitrary_bytes(data):
    for fmt in ("binary",):
        try:
            h = sb.HloSharding.from_proto(data, fmt)
        except sb.Error:
            continue
        assert sb.HloSharding.from_proto(h.to_proto()) == h
    try:
        sb.to_sdy(data)
    except sb.Error:
        pass


@pytest.mark.parametrize("call", [
    lambda: sb.Mesh({"a": "2"}),
    lambda: sb.Mesh({"a": 2.0}),
    lambda: sb.Mesh([("a",)]),
    lambda: sb.Mesh({"a": 2}, device_ids="01"),
    lambda: sb.Mesh({"a": 2}, device_ids=[0, "1"]),
    lambda: sb.to_hlo('#sdy.sharding<@mesh, [{"a"}]>', '<["a"=2]>', manual_axes="a"),
    lambda: sb.to_sdy("{replicated}", rank="1"),
    lambda: sb.HloSharding.parse("{replicated}").validate(["4"]),
    lambda: sb.HloSharding.parse("{replicated}").explain(shape=4),
    lambda: sb.HloSharding.parse("{replicated}").show(rows="0"),
    lambda: sb.convert_module("module {\n}\n", keep_hlo_sharding_constraints=1.5),
    lambda: sb.HloSharding.__new__(sb.HloSharding).__setstate__((3,)),
])
def test_type_errors(call):
    with pytest.raises(TypeError):
        call()


def test_out_of_range_ints_are_errors():
    with pytest.raises(sb.Error, match="out of range"):
        sb.Mesh({"a": 2 ** 70})
    with pytest.raises(sb.Error):
        sb.HloSharding.parse("{devices=[2]<=[2]}").devices_indices_map([2 ** 70])
