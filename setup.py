"""setuptools glue for pyproject.toml: the version from
include/shardbridge/version.h, and the compiled _core copied from the CMake
build tree (built with the release preset when absent), so a venv install
reuses build/release instead of compiling the library twice."""

import glob
import os
import pathlib
import re
import shutil
import subprocess
import sysconfig

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = pathlib.Path(__file__).parent.resolve()


def version():
    text = (ROOT / "include" / "shardbridge" / "version.h").read_text()
    parts = [re.search(rf"#define SB_VERSION_{k} (\d+)", text).group(1) for k in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


def build_dir():
    return pathlib.Path(os.environ.get("SHARDBRIDGE_BUILD_DIR", ROOT / "build" / "release")).resolve()


class BuildPyWithCore(build_py):
    def run(self):
        super().run()
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        build = build_dir()
        core = build / "python" / "shardbridge" / f"_core{suffix}"
        if not core.exists():
            if "SHARDBRIDGE_BUILD_DIR" in os.environ:
                raise SystemExit(f"{core} does not exist: build the sb_python target in {build} first")
            subprocess.check_call(["cmake", "--preset", "release"], cwd=ROOT)
            subprocess.check_call(["cmake", "--build", "--preset", "release", "--target", "sb_python"], cwd=ROOT)
        if not core.exists():
            found = glob.glob(str(build / "python" / "shardbridge" / "_core*.so"))
            raise SystemExit(f"no {core.name} in {core.parent} (found {found}): the module was built for "
                             "another Python; configure with -DPython3_EXECUTABLE=<this python>")
        dest = pathlib.Path(self.build_lib) / "shardbridge"
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copy2(core, dest / core.name)


class BinaryDistribution(Distribution):
    """The wheel holds a compiled module: tag it for this interpreter."""

    def has_ext_modules(self):
        return True


setup(
    version=version(),
    cmdclass={"build_py": BuildPyWithCore},
    distclass=BinaryDistribution,
    options={"build": {"build_base": str(build_dir() / "python-setup")},
             "egg_info": {"egg_base": str(build_dir())}},
)
