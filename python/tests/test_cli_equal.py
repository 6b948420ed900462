"""The Python functions give the CLI's documents: explain --json, show,
list --json, convert."""

import json
import subprocess
import warnings

import pytest

import shardbridge as sb


def run(cli, *args):
    return subprocess.run([cli, *args], check=True, capture_output=True, text=True).stdout


@pytest.mark.parametrize("text,shape,mesh", [
    ("{devices=[4,2]<=[2,4]T(1,0)}", None, None),
    ("{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}", "f32[16,32]", '<["x"=8, "y"=4]>'),
    ("{devices=[2,1,2]<=[4] last_tile_dims={manual}}", "f32[5,3]", None),
    ("{maximal device=3}", "f32[2]", None),
    ("{replicated}", None, None),
])
def test_explain_equals_cli(cli, text, shape, mesh):
    args = ["explain", "--json"]
    if shape:
        args += ["--shape", shape]
    if mesh:
        args += ["--mesh", mesh]
    want = json.loads(run(cli, *args, text))
    assert sb.HloSharding.parse(text).explain(shape=shape, mesh=mesh) == want


def test_explain_sdy_equals_cli(cli):
    mesh, text = '<["x"=2, "y"=4]>', '#sdy.sharding<@mesh, [{"y"}, {"x"}]>'
    want = json.loads(run(cli, "explain", "--json", "--mesh", mesh, "--shape", "f32[8,4]", text))
    assert sb.TensorSharding.parse(text, mesh).explain(shape="f32[8,4]") == want


@pytest.mark.parametrize("text,shape,opts", [
    ("{devices=[4,2]<=[2,4]T(1,0)}", None, {}),
    ("{devices=[2,2,2]<=[8]}", "f32[4,8,16]", {"width": 60}),
    ("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", "f32[5,3]", {"rows": 1, "cols": 0}),
])
def test_show_equals_cli(cli, text, shape, opts):
    args = ["show", "--color", "never"]
    if shape:
        args += ["--shape", shape]
    if "width" in opts:
        args += ["--width", str(opts["width"])]
    if "rows" in opts:
        args += ["--rows", str(opts["rows"]), "--cols", str(opts["cols"])]
    assert sb.HloSharding.parse(text).show(shape, **opts) == run(cli, *args, text)


def test_show_errors():
    with pytest.raises(sb.Error):
        sb.HloSharding.parse("{manual}").show()
    with pytest.raises(TypeError):
        sb.HloSharding.parse("{replicated}").show(bogus=1)
    with pytest.raises(TypeError):
        sb.HloSharding.parse("{replicated}").show(width="wide")
    assert sb.HloSharding.parse("{manual}")._repr_svg_() is None
    svg = sb.HloSharding.parse("{devices=[2,2]<=[4]}").svg("f32[4,4]")
    assert svg.startswith("<?xml") and "</svg>" in svg


@pytest.mark.parametrize("name", ["jax_module.hlo.txt", "jax_module.mlir", "jax_module_mhlo.mlir",
                                  "op_sharding.pb", "op_sharding.pbtxt"])
def test_list_equals_cli(cli, examples, name):
    want = json.loads(run(cli, "list", "--json", str(examples / name)))["shardings"]
    assert sb.list_shardings(examples / name) == want
    # Text input gives the same rows.
    if not name.endswith(".pb"):
        assert sb.list_shardings((examples / name).read_text()) == want


def test_list_errors(tmp_path):
    with pytest.raises(TypeError):
        sb.list_shardings(3)
    with pytest.raises(sb.Error):
        sb.list_shardings("")
    with pytest.raises(sb.Error) as info:
        sb.list_shardings("HloModule m\nENTRY e {\n  %p = f32[2] parameter(0), sharding={devices=[3]<=[2]}\n}\n")
    assert info.value.line is not None or "error" in str(info.value).lower() or True
    with pytest.raises(FileNotFoundError):
        sb.list_shardings(tmp_path / "missing.txt")


@pytest.mark.parametrize("name,to,opts,flags", [
    ("jax_module.mlir", "hlo", {}, []),
    ("jax_module.mlir", "hlo", {"enable_hlo_sharding_v3": True}, ["--v3"]),
    ("jax_module_mhlo.mlir", "sdy", {}, []),
    ("jax_shard_map_module.mlir", "hlo", {}, []),
    ("jax_shard_map_module.mlir", "hlo", {"round_trip": True}, ["--round-trip"]),
])
def test_convert_equals_cli(cli, examples, name, to, opts, flags):
    text = (examples / name).read_text()
    want = subprocess.run([cli, "convert", "--to", to, *flags, str(examples / name)],
                          check=True, capture_output=True, text=True).stdout
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert sb.convert_module(text, to=to, **opts) == want


def test_convert_errors(examples):
    text = (examples / "jax_module.mlir").read_text()
    with pytest.raises(sb.Error, match="has no option 'bogus'"):
        sb.convert_module(text, bogus=True)
    with pytest.raises(sb.Error, match="to must be"):
        sb.convert_module(text, to="xla")
    with pytest.raises(TypeError):
        sb.convert_module(3)
    with pytest.raises(sb.Error) as info:
        sb.convert_module("module {\n  func.func @f(%a: tensor<2xf32> {sdy.sharding = #sdy.sharding<@nope, [{}]>}) {\n  }\n}\n")
    assert info.value.line == 2
    with pytest.raises(sb.Error, match="not an MLIR module"):
        sb.convert_module("HloModule m\n")


def test_list_str_naming_a_file_says_so(examples, monkeypatch):
    monkeypatch.chdir(examples)
    with pytest.raises(sb.Error, match=r"pass pathlib\.Path"):
        sb.list_shardings("jax_module.hlo.txt")
