"""The core objects: Error, Mesh, TensorSharding, HloSharding."""

import pickle
import threading

import pytest

import shardbridge as sb


def test_version():
    assert sb.__version__.count(".") == 2


def test_error_is_value_error_with_location():
    with pytest.raises(sb.Error) as info:
        sb.TensorSharding.parse('#sdy.sharding<@mesh, [{}, {"c"}]>', '<["a"=2]>')
    e = info.value
    assert isinstance(e, ValueError)
    assert str(e) == 'unknown axis name: "c"'
    assert (e.offset, e.line, e.column, e.code) == (27, 1, 28, "invalid")
    assert e.diagnostic == ('<input>:1:28: error: unknown axis name: "c"\n'
                            '#sdy.sharding<@mesh, [{}, {"c"}]>\n'
                            '                           ^\n')


def test_parse_error_has_the_parameter_as_note():
    # MLIR's first diagnostic, then the parameter context (docs/sdy_parse_errors.md).
    with pytest.raises(sb.Error) as info:
        sb.TensorSharding.parse('#sdy.sharding<@mesh, [{"x" "y"}]>', '<["x"=2, "y"=2]>')
    e = info.value
    assert str(e) == "expected ','" and e.code == "parse"
    assert (e.line, e.column, e.note_line, e.note_column) == (1, 27, 1, 28)
    note = ("failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a "
            "`::llvm::ArrayRef<DimensionShardingAttr>`")
    assert e.note == note
    assert e.diagnostic == ("<input>:1:27: error: expected ','\n"
                            '#sdy.sharding<@mesh, [{"x" "y"}]>\n'
                            "                          ^\n"
                            f"<input>:1:28: note: {note}\n")
    back = pickle.loads(pickle.dumps(e))
    assert (back.note, back.note_line, back.note_column) == (note, 1, 28)


def test_error_without_note():
    with pytest.raises(sb.Error) as info:
        sb.TensorSharding.parse('#sdy.sharding<@mesh, [{}, {"c"}]>', '<["a"=2]>')
    assert info.value.note is None and info.value.note_line is None


def test_error_on_a_later_line():
    with pytest.raises(sb.Error) as info:
        sb.TensorSharding.parse('#sdy.sharding<@mesh,\n [{"c"}]>', '<["a"=2]>')
    assert info.value.line == 2
    assert info.value.diagnostic.startswith("<input>:2:")


def test_error_without_offset_and_pickled():
    with pytest.raises(sb.Error) as info:
        sb.to_hlo('#sdy.sharding<@mesh, [{"x"}]>')
    e = info.value
    assert e.offset is None and e.line is None and e.column is None
    assert e.diagnostic == f"<input>: error: {e}\n"
    back = pickle.loads(pickle.dumps(e))
    assert (str(back), back.offset, back.diagnostic, back.code) == (str(e), e.offset, e.diagnostic, e.code)


def test_mesh():
    m = sb.Mesh({"x": 2, "y": 4})
    assert str(m) == '#sdy.mesh<["x"=2, "y"=4]>'
    assert m.axes == {"x": 2, "y": 4} and list(m.axes) == ["x", "y"]
    assert m.device_ids is None and m.size == 8 and m.name == "mesh"
    p = sb.Mesh.parse('sdy.mesh @m = <["a"=2], device_ids=[1, 0]>')
    assert p.name == "m" and p.device_ids == [1, 0] and p.size == 2
    assert sb.Mesh({"a": 2}, device_ids=[1, 0]) == sb.Mesh.parse('<["a"=2], device_ids=[1, 0]>')
    # Shardy drops device ids equal to iota.
    assert sb.Mesh({"a": 2}, device_ids=[0, 1]).device_ids is None
    assert pickle.loads(pickle.dumps(p)) == p and pickle.loads(pickle.dumps(p)).name == "m"
    assert hash(sb.Mesh({"x": 2})) == hash(sb.Mesh.parse('<["x"=2]>'))


def test_mesh_errors():
    with pytest.raises(sb.Error, match='duplicate axis name: "a"'):
        sb.Mesh.parse('<["a"=2, "a"=4]>')
    with pytest.raises(sb.Error):
        sb.Mesh({"a": 0})
    with pytest.raises(sb.Error):
        sb.Mesh({"a": 2}, device_ids=[0, 0])
    with pytest.raises(sb.Error):
        sb.Mesh.parse('#sdy.sharding<@mesh, []>')
    with pytest.raises(TypeError):
        sb.Mesh.parse(42)
    with pytest.raises(TypeError):
        sb.Mesh('<["a"=2]>')
    with pytest.raises(TypeError):
        sb.Mesh({1: 2})


def test_tensor_sharding():
    m = sb.Mesh({"x": 8, "y": 4, "z": 2})
    s = sb.TensorSharding.parse('#sdy.sharding<@mesh, [{"x":(2)2, ?}, {}], replicated={"z"}, unreduced={"y"}>', m)
    assert s.dims == [["x:(2)2"], []]
    assert s.open_dims == [True, False]
    assert s.replicated == ["z"] and s.unreduced == ["y"] and s.reduction == "sum"
    assert s.mesh == m and s.rank == 2 and s.mesh_name == "mesh"
    assert str(s) == '#sdy.sharding<@mesh, [{"x":(2)2, ?}, {}], replicated={"z"}, unreduced={"y"}>'
    assert pickle.loads(pickle.dumps(s)) == s
    assert sb.TensorSharding.parse('<@mesh, [{"x"}]>').mesh is None
    inline = sb.TensorSharding.parse('#sdy.sharding<mesh<["a"=2]>, [{"a"}]>')
    assert inline.mesh.axes == {"a": 2}
    with pytest.raises(sb.Error, match="got a mesh"):
        sb.TensorSharding.parse('<["a"=2]>')
    with pytest.raises(sb.Error) as info:
        sb.TensorSharding.parse('#sdy.sharding<@mesh, [{"x"}, {"x"}]>', m)
    assert info.value.offset is not None
    with pytest.raises(TypeError):
        sb.TensorSharding.parse(None)
    with pytest.raises(TypeError):
        sb.TensorSharding.parse('<@mesh, []>', mesh=3)


V2 = "{devices=[4,2]<=[2,4]T(1,0)}"
V1 = "{devices=[4,2]0,4,1,5,2,6,3,7}"


def test_hlo_sharding_text_and_equality():
    s = sb.HloSharding.parse(V2)
    assert str(s) == V2 and repr(s) == f"HloSharding.parse('{V2}')"
    v1 = sb.HloSharding.parse(V1)
    assert str(v1) == V1
    assert s == v1 and hash(s) == hash(v1)  # XLA's equality: iota == its device list
    assert s != sb.HloSharding.parse("{devices=[4,2]<=[8]}")
    v3 = sb.HloSharding.parse("{mesh['x'=2,'y'=4], [{'y'}, {'x'}]}")
    assert v3 == s and hash(v3) == hash(s)
    md = sb.HloSharding.parse('{devices=[2]<=[2] metadata={op_name="a"}}')
    assert md == sb.HloSharding.parse("{devices=[2]<=[2]}") and hash(md) == hash(sb.HloSharding.parse("{devices=[2]<=[2]}"))
    assert md.to_string(metadata=True) == '{devices=[2]<=[2] metadata={op_name="a"}}'
    assert s.tile_dims == (4, 2) and s.is_tiled and not s.is_replicated and not s.is_tuple
    assert sb.HloSharding.parse("{replicated}").is_replicated
    assert sb.HloSharding.parse("{maximal device=3}").device == 3
    t = sb.HloSharding.parse("{{replicated}, {devices=[2]<=[2]}}")
    assert t.is_tuple and [str(e) for e in t.tuple_elements] == ["{replicated}", "{devices=[2]<=[2]}"]
    p = sb.HloSharding.parse("{devices=[2,1,2]<=[4] last_tile_dims={manual}}")
    assert p.subgroup_types == ["manual"] and p.tile_dims == (2, 1, 2)


def test_hlo_sharding_proto_and_pickle():
    s = sb.HloSharding.parse('{devices=[4,2]<=[2,4]T(1,0) metadata={op_name="x"}}')
    data = s.to_proto()
    assert isinstance(data, bytes)
    back = sb.HloSharding.from_proto(data)
    assert back == s and back.to_string(metadata=True) == s.to_string(metadata=True)
    assert sb.HloSharding.from_proto(s.to_proto("text"), "text") == s
    assert sb.HloSharding.from_proto(s.to_proto("json"), "json") == s
    p = pickle.loads(pickle.dumps(s))
    assert p == s and p.to_string(metadata=True) == s.to_string(metadata=True)
    with pytest.raises(sb.Error):
        sb.HloSharding.from_proto(b"\xff\xff\xff")
    with pytest.raises(sb.Error, match="format must be"):
        s.to_proto("yaml")


def test_hlo_sharding_errors():
    with pytest.raises(sb.Error) as info:
        sb.HloSharding.parse("{devices=[2,2]<=[5]}")
    assert info.value.code == "parse" and info.value.offset is not None
    with pytest.raises(TypeError):
        sb.HloSharding.parse(3)
    with pytest.raises(sb.Error):
        sb.HloSharding.parse("")


def test_validate():
    s = sb.HloSharding.parse("{devices=[2,2]<=[4]}")
    assert s.validate("f32[4,4]") is None
    assert s.validate([4, 4], num_devices=4) is None
    with pytest.raises(sb.Error, match="rank"):
        s.validate("f32[4]")
    with pytest.raises(sb.Error):
        s.validate([4, 4], num_devices=2)
    with pytest.raises(TypeError):
        s.validate(4)


def test_threads_share_the_module():
    errors = []

    def work():
        try:
            for i in range(300):
                s = sb.HloSharding.parse("{devices=[4,2]<=[2,4]T(1,0)}")
                t = sb.to_sdy(s, '<["x"=2, "y"=4]>')
                assert str(sb.to_hlo(t)) == str(s)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_contexts_are_freed():
    from shardbridge import _core
    mesh = '<["x"=2, "y"=4, "z"=3]>'
    for i in range(40000):
        sb.TensorSharding.parse(f'#sdy.sharding<@m{i}, [{{"x"}}, {{}}]>')
    live, _ = _core._context_stats()
    # Each sharding names a new mesh symbol: the contexts rotate, and the
    # ones no object uses are gone.
    assert live <= 2
    kept = [sb.TensorSharding.parse(f'#sdy.sharding<@k{i}, [{{"x"}}]>', mesh) for i in range(30000)]
    assert all(k.mesh.size == 24 for k in kept[:5])
    assert str(kept[0]) == '#sdy.sharding<@k0, [{"x"}]>'


def _resident_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    pytest.skip("no VmRSS in /proc/self/status")


def _parse_distinct(start, count, keep=None):
    for i in range(start, start + count):
        m = sb.Mesh.parse(f'<["x"={i + 1}, "y"=2]>')
        s = sb.TensorSharding.parse('#sdy.sharding<@mesh, [{"x"}, {"y"}]>', m)
        if keep is not None:
            keep.append(s)


def test_resident_size_stops_growing():
    # Each iteration makes new attributes (a mesh of a new size): about
    # 4 a round, so 40,000 rounds fill the current context twice over (after 30,000
    # rounds that reach the steady size). Were
    # the contexts kept, the attributes alone would add well over 10 MiB.
    _parse_distinct(0, 30000)
    before = _resident_mib()
    _parse_distinct(30000, 40000)
    grown = _resident_mib() - before
    assert grown < 5, f"resident size grew by {grown:.1f} MiB over 40,000 distinct shardings"


def test_threads_convert_modules_and_list_dumps(examples):
    import warnings
    text = (examples / "jax_module.mlir").read_text()
    dump = (examples / "jax_module.hlo.txt").read_text()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want_module = sb.convert_module(text)
    want_rows = sb.list_shardings(dump)
    results, errors = [], []

    def work():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for _ in range(20):
                    results.append((sb.convert_module(text), sb.list_shardings(dump)))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(results) == 80
    assert all(m == want_module and r == want_rows for m, r in results)
