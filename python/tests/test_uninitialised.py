"""Objects made by ``cls.__new__(cls)`` alone — what unpickling makes before it
calls __setstate__, and what a script may make by hand — never crash the
interpreter (issue 12: "nothing crashes the interpreter"). Every method,
property and operator of every bound class, on such an object or taking one
as an argument, raises TypeError saying it is not initialised; __setstate__
(and Mesh's __init__) initialise it; pickles, copies and the pickles written
before stay as they were, and every protocol pickles. Each probe runs in a child interpreter, so a crash fails the test
(naming the call it crashed in) instead of killing pytest.
docs/python.md § Objects made by __new__."""

import json
import pickle
import subprocess
import sys
import textwrap

import pytest

import shardbridge as sb
from shardbridge import _core

# Every pybind11 class the module binds (checked below against _core).
CLASSES = ["HloSharding", "Mesh", "TensorSharding"]

# The code every probe starts with: `calls` is a list of (label, thunk); each
# outcome is printed as a JSON line after a line naming the call, so the
# last name on stdout is the call a crash happened in.
PRELUDE = textwrap.dedent("""
    import copy, json, pickle, sys
    import shardbridge as sb

    def run(calls):
        for label, thunk in calls:
            print("CALL " + label, flush=True)
            try:
                value = thunk()
                out = {"label": label, "ok": True, "value": repr(value)[:200]}
            except BaseException as e:  # noqa: B902 - the outcome is the point
                out = {"label": label, "ok": False, "type": type(e).__name__, "message": str(e)[:400]}
            print("OUT " + json.dumps(out), flush=True)

    H = sb.HloSharding.parse("{devices=[2,2]<=[4]}")
    M = sb.Mesh({"x": 2, "y": 2})
    T = sb.to_sdy(H, M)
    REAL = {"HloSharding": H, "Mesh": M, "TensorSharding": T}

    # Arguments that get each method past pybind11's arity check to the
    # point where it loads `self` (the instance is the first argument loaded).
    ARGS = {
        "validate": ("f32[4,4]",),
        "devices_indices_map": ((4, 4),),
        "__eq__": (H,),
        "__ne__": (H,),
        "__setstate__": None,  # initialises: probed on its own
        "__init__": None,
        "__getstate__": (),
        "placements": ((2, 2),),
    }
""")

# For each bound class: every attribute its own classes define (not object's),
# properties read, methods called; the operators and copy/pickle; and the
# uninitialised object passed to every function that takes one.
PROBE_ALL = PRELUDE + textwrap.dedent("""
    name, kind = sys.argv[1], sys.argv[2]
    base = getattr(sb, name)
    other = sb.Mesh if name != "Mesh" else sb.HloSharding
    cls = {"class": base, "subclass": type("Sub" + name, (base,), {}),
           "multiple": type("Multi" + name, (base, other), {})}[kind]
    globals()[cls.__name__] = cls  # so that pickle finds the subclass
    obj = cls.__new__(cls)
    calls = []
    seen = set()
    for klass in cls.__mro__:
        if klass.__module__ not in ("shardbridge._core", "shardbridge") and klass is not cls:
            continue
        for attr, raw in vars(klass).items():
            if attr in seen or attr in ("__new__", "__doc__", "__module__", "__dict__", "__weakref__",
                                        "__qualname__", "__annotations__"):
                continue
            seen.add(attr)
            if isinstance(raw, (staticmethod, classmethod)) or (attr in ARGS and ARGS[attr] is None):
                continue
            if isinstance(raw, property):
                calls.append(("." + attr, lambda a=attr: getattr(obj, a)))
            elif callable(raw):
                args = ARGS.get(attr, ())
                calls.append(("." + attr + "()", lambda a=attr, args=args: getattr(obj, a)(*args)))
    real = REAL[name]
    calls += [
        ("str", lambda: str(obj)),
        ("repr", lambda: repr(obj)),
        ("format", lambda: format(obj)),
        ("hash", lambda: hash(obj)),
        ("obj == real", lambda: obj == real),
        ("real == obj", lambda: real == obj),
        ("obj != real", lambda: obj != real),
        ("real != obj", lambda: real != obj),
        ("obj == obj", lambda: obj == obj),
        ("in set", lambda: obj in {real}),
        ("copy.copy", lambda: copy.copy(obj)),
        ("copy.deepcopy", lambda: copy.deepcopy(obj)),
    ] + [("pickle protocol %d" % p, lambda p=p: pickle.dumps(obj, p)) for p in range(pickle.HIGHEST_PROTOCOL + 1)]
    mesh_text = '<["x"=2, "y"=2]>'
    if name == "HloSharding":
        calls += [
            ("to_sdy(obj)", lambda: sb.to_sdy(obj)),
            ("to_sdy(obj, M)", lambda: sb.to_sdy(obj, M)),
            ("to_sdy(obj, mesh_text)", lambda: sb.to_sdy(obj, mesh_text)),
            ("to_sdy(obj, M, rank=2)", lambda: sb.to_sdy(obj, M, rank=2)),
            ("infer_mesh([obj])", lambda: sb.infer_mesh([obj])),
            ("infer_mesh([H, obj])", lambda: sb.infer_mesh([H, obj])),
            ("HloSharding.placements(obj)", lambda: sb.HloSharding.placements(obj, (2, 2))),
        ]
    if name == "Mesh":
        calls += [
            ("to_sdy(H, obj)", lambda: sb.to_sdy(H, obj)),
            ("to_sdy(text, obj)", lambda: sb.to_sdy("{devices=[2,2]<=[4]}", obj)),
            ("to_hlo(T, obj)", lambda: sb.to_hlo(T, obj)),
            ("to_hlo(text, obj)", lambda: sb.to_hlo('#sdy.sharding<@mesh, [{"x"}, {}]>', obj)),
            ("TensorSharding.parse(text, obj)", lambda: sb.TensorSharding.parse('<@mesh, [{"x"}]>', obj)),
            ("H.explain(mesh=obj)", lambda: H.explain(mesh=obj)),
            ("T.explain(mesh=obj)", lambda: T.explain(mesh=obj)),
            ("H.show(mesh=obj)", lambda: H.show(mesh=obj)),
            ("H.svg(mesh=obj)", lambda: H.svg(mesh=obj)),
            ("from_partition_spec(P, obj)", lambda: sb.from_partition_spec(("x", None), obj)),
            ("M == obj", lambda: M == obj),
        ]
    if name == "TensorSharding":
        calls += [
            ("to_hlo(obj)", lambda: sb.to_hlo(obj)),
            ("to_hlo(obj, M)", lambda: sb.to_hlo(obj, M)),
            ("partition_spec(obj)", lambda: sb.TensorSharding.partition_spec(obj)),
            ("T == obj", lambda: T == obj),
        ]
    run(calls)
""")


def probe(code, *args):
    """Runs `code` in a child /usr/bin/python3 (this interpreter) with the
    module; returns the outcomes, failing with the call a crash was in."""
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)
    lines = proc.stdout.splitlines()
    calls = [line[5:] for line in lines if line.startswith("CALL ")]
    assert proc.returncode == 0, (
        f"the child exited with {proc.returncode} in {calls[-1] if calls else 'setup'!r}; stderr:\n{proc.stderr[-2000:]}")
    return [json.loads(line[4:]) for line in lines if line.startswith("OUT ")]


def test_the_probed_classes_are_every_bound_class():
    bound = sorted(n for n, v in vars(_core).items()
                   if isinstance(v, type) and type(v).__name__ == "pybind11_type")
    assert bound == CLASSES


def outcome_text(out):
    return f"{out['label']}: " + (f"returned {out['value']}" if out["ok"] else f"{out['type']}: {out['message']}")


# "multiple": a Python class deriving from two bound classes, whose
# instances pybind11 lays out differently (a value and holder per base).
@pytest.mark.parametrize("kind", ["class", "subclass", "multiple"])
@pytest.mark.parametrize("name", CLASSES)
def test_every_use_of_an_uninitialised_object_raises_type_error(name, kind):
    outcomes = probe(PROBE_ALL, name, kind)
    labels = [o["label"] for o in outcomes]
    # The probe reached the class's own methods, not just the operators.
    assert {".__str__()", ".__repr__()", ".__getstate__()"} <= set(labels), labels
    shown = {"class": "", "subclass": "Sub", "multiple": "Multi"}[kind] + name
    wrong = [outcome_text(o) for o in outcomes
             if o["ok"] or o["type"] != "TypeError" or f"this {shown} is not initialised" not in o["message"]]
    assert len(outcomes) >= 38, labels
    assert wrong == [], "\n".join(wrong)


def test_the_message_names_the_class_and_how_to_make_one():
    outcomes = probe(PRELUDE + textwrap.dedent("""
        run([(n, lambda n=n: str(getattr(sb, n).__new__(getattr(sb, n)))) for n in ("HloSharding", "Mesh", "TensorSharding")])
    """))
    assert [o["message"] for o in outcomes] == [
        "this HloSharding is not initialised (it was made by __new__() alone); make one with "
        "HloSharding.parse() or HloSharding.from_proto()",
        "this Mesh is not initialised (it was made by __new__() alone); make one with Mesh(axes) or Mesh.parse()",
        "this TensorSharding is not initialised (it was made by __new__() alone); make one with "
        "TensorSharding.parse() or to_sdy()",
    ]


def test_fast_paths_hand_uninitialised_objects_on():
    outcomes = probe(PRELUDE + textwrap.dedent("""
        from shardbridge import _core
        h = sb.HloSharding.__new__(sb.HloSharding)
        m = sb.Mesh.__new__(sb.Mesh)
        before = _core._fast_call_stats()
        run([("str(h)", lambda: str(h)), ("to_sdy(h, M)", lambda: sb.to_sdy(h, M)),
             ("to_sdy(H, m)", lambda: sb.to_sdy(H, m)), ("to_sdy(h, m)", lambda: sb.to_sdy(h, m))])
        after = _core._fast_call_stats()
        print("OUT " + json.dumps({"label": "stats", "ok": True,
                                   "value": [after[k][1] - before[k][1] for k in ("str(HloSharding)", "to_sdy")]}))
    """))
    *calls, stats = outcomes
    assert [(o["type"], o["message"].split(" is ")[0]) for o in calls] == [
        ("TypeError", "this HloSharding"), ("TypeError", "this HloSharding"),
        ("TypeError", "this Mesh"), ("TypeError", "this HloSharding")]
    assert stats["value"] == [1, 3]  # every one handed to the pybind11 function


@pytest.mark.parametrize("subclass", [False, True], ids=["class", "subclass"])
def test_setstate_and_init_initialise_an_object_made_by_new(subclass):
    def make(cls):
        return type("Sub" + cls.__name__, (cls,), {}) if subclass else cls

    H = sb.HloSharding.parse('{devices=[2,2]<=[4] metadata={op_name="a"}}')
    M = sb.Mesh({"x": 2, "y": 2}, name="m")
    T = sb.to_sdy(H, M)
    for real in (H, M, T):
        cls = make(type(real))
        obj = cls.__new__(cls)
        obj.__setstate__(real.__getstate__())
        assert obj == real and str(obj) == str(real) and hash(obj) == hash(real)
    cls = make(sb.Mesh)
    m = cls.__new__(cls)
    m.__init__({"x": 2, "y": 2}, name="m")
    assert m == M and m.name == "m"


def test_a_failed_setstate_leaves_an_uninitialised_object_not_a_crash():
    # pybind11 frees the value of an object it did not register (the direct
    # entry points' objects, python/src/fast_calls.cc) before it runs
    # __setstate__ again; when that __setstate__ raises, the object is left
    # without a value, like one made by __new__.
    outcomes = probe(PRELUDE + textwrap.dedent("""
        h = sb.HloSharding.parse("{devices=[2,2]<=[4]}")
        t = sb.to_sdy(h, M)
        run([("h.__setstate__", lambda: h.__setstate__((3,))), ("str(h)", lambda: str(h)),
             ("h.to_proto()", lambda: h.to_proto()), ("hash(h)", lambda: hash(h)),
             ("t.__setstate__", lambda: t.__setstate__(("garbage", None))), ("str(t)", lambda: str(t)),
             ("t.dims", lambda: t.dims)])
    """))
    assert [(o["label"], o["type"], o["message"].split(" is ")[0]) for o in outcomes] == [
        ("h.__setstate__", "TypeError", "HloSharding state must be str or bytes, not int"),
        ("str(h)", "TypeError", "this HloSharding"), ("h.to_proto()", "TypeError", "this HloSharding"),
        ("hash(h)", "TypeError", "this HloSharding"),
        ("t.__setstate__", "Error",
         "expected '#sdy.mesh', '#sdy.sharding', '#sdy.sharding_per_value' or 'sdy.mesh', got 'garbage'"), ("str(t)", "TypeError", "this TensorSharding"),
        ("t.dims", "TypeError", "this TensorSharding")]


def pickled_objects():
    H = sb.HloSharding.parse('{devices=[2,2]<=[4] metadata={op_name="a"}}')
    M = sb.Mesh({"x": 2, "y": 2}, device_ids=[3, 2, 1, 0], name="m")
    T = sb.TensorSharding.parse('<@m, [{"x"}, {}]>', M)
    return {"HloSharding": H, "Mesh": M, "TensorSharding": T}


# pickle.dumps(obj, 4) of pickled_objects(), written by the module before the
# guards (main at 3416537, pybind11's py::pickle): the same bytes now, and
# they load.
OLD_PICKLES = {
    "HloSharding": b'\x80\x04\x95Y\x00\x00\x00\x00\x00\x00\x00\x8c\x11shardbridge._core\x94\x8c\x0bHloSharding\x94'
                   b'\x93\x94)\x81\x94C+{devices=[2,2]<=[4] metadata={op_name="a"}}\x94\x85\x94b.',
    "Mesh": b'\x80\x04\x95]\x00\x00\x00\x00\x00\x00\x00\x8c\x11shardbridge._core\x94\x8c\x04Mesh\x94\x93\x94)'
            b'\x81\x94\x8c2#sdy.mesh<["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>\x94\x8c\x01m\x94\x86\x94b.',
    "TensorSharding": b'\x80\x04\x95\x99\x00\x00\x00\x00\x00\x00\x00\x8c\x11shardbridge._core\x94\x8c\x0e'
                      b'TensorSharding\x94\x93\x94)\x81\x94\x8c\x1e#sdy.sharding<@m, [{"x"}, {}]>\x94h\x00\x8c\x04Mesh'
                      b'\x94\x93\x94)\x81\x94\x8c2#sdy.mesh<["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>\x94\x8c\x01m'
                      b'\x94\x86\x94b\x86\x94b.',
}


@pytest.mark.parametrize("name", CLASSES)
def test_pickles_written_before_load_and_are_written_the_same(name):
    real = pickled_objects()[name]
    back = pickle.loads(OLD_PICKLES[name])
    assert type(back) is type(real) and back == real and back.__getstate__() == real.__getstate__()
    assert pickle.dumps(real, 4) == OLD_PICKLES[name]


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_copy_and_pickle_still_work(protocol):
    import copy

    # Protocols 0 and 1 aborted the interpreter before __reduce__ (copyreg's
    # _reduce_ex called pybind11's base class).
    for real in pickled_objects().values():
        for back in (pickle.loads(pickle.dumps(real, protocol)), copy.copy(real), copy.deepcopy(real)):
            assert type(back) is type(real) and back == real and back.__getstate__() == real.__getstate__()
