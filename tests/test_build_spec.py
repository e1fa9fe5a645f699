"""Static checks of the frozen build (spec, filters, version resource, CI scripts) and the self-test in-process."""

from __future__ import annotations

import ast
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import tempfile
import types
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC_DIR = ROOT / "build_spec"
if str(SPEC_DIR) not in sys.path:
    sys.path.insert(0, str(SPEC_DIR))

import ci_check  # noqa: E402
import freeze_config as cfg  # noqa: E402
import slim  # noqa: E402
import version_info  # noqa: E402
import wine_standins  # noqa: E402

from onnxpack import core  # noqa: E402


# --- what goes into the folder --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "dest",
    [
        "PySide6/Qt/lib/libQt6Qml.so.6",
        "PySide6/Qt/lib/libQt6QuickControls2Basic.so.6",
        "PySide6/Qt/lib/libQt6Designer.so.6",
        "PySide6/Qt/lib/libQt6Network.so.6",
        "PySide6/Qt/lib/libQt6Pdf.so.6",
        "PySide6/Qt6WebEngineCore.dll",
        "PySide6/Qt6Quick.dll",
        "PySide6/opengl32sw.dll",
        "PySide6/Qt/plugins/platforminputcontexts/libqtvirtualkeyboardplugin.so",
        "PySide6/Qt/plugins/platformthemes/libqgtk3.so",
        "PySide6/Qt/plugins/sqldrivers/libqsqlite.so",
        "PySide6/plugins/tls/qschannelbackend.dll",
        "PySide6/Qt/plugins/platforms/libqeglfs.so",
        "PySide6/Qt/qml/QtQuick/Controls/qmldir",
        "PySide6/Qt/translations/qtbase_de.qm",
        "PySide6/translations/qt_help_fr.qm",
        # the C-API library carries the runtime's version in its name: the installed one, whatever it is
        f"onnxruntime/capi/libonnxruntime.so.{importlib.metadata.version('onnxruntime')}",
        "onnxruntime/capi/onnxruntime.dll",
        "onnxruntime/capi/libonnxruntime_providers_cuda.so",
    ],
)
def test_unused_qt_and_runtime_files_are_dropped(dest: str) -> None:
    assert not cfg.keep_entry(dest)
    assert not cfg.keep_entry(dest.replace("/", "\\"))


@pytest.mark.parametrize(
    "dest",
    [
        "PySide6/Qt/lib/libQt6Core.so.6",
        "PySide6/Qt/lib/libQt6Gui.so.6",
        "PySide6/Qt/lib/libQt6Widgets.so.6",
        "PySide6/Qt/lib/libQt6DBus.so.6",
        "PySide6/Qt/lib/libQt6XcbQpa.so.6",
        "PySide6/Qt/lib/libQt6Svg.so.6",
        "PySide6/Qt/lib/libicudata.so.73",
        "PySide6/Qt6Core.dll",
        "PySide6/plugins/platforms/qwindows.dll",
        "PySide6/plugins/platforms/qoffscreen.dll",
        "PySide6/plugins/styles/qmodernwindowsstyle.dll",
        "PySide6/Qt/plugins/platforms/libqxcb.so",
        "PySide6/Qt/plugins/platforms/libqoffscreen.so",
        "PySide6/Qt/plugins/imageformats/libqico.so",
        "PySide6/Qt/plugins/iconengines/libqsvgicon.so",
        "PySide6/Qt/translations/qtbase_ja.qm",
        "PySide6/translations/qt_ja.qm",
        "resources/i18n/onnxpack_ja.qm",
        "resources/i18n/qtbase_ja.qm",
        "resources/sample/victory.onnx",
        "resources/sample/victory.onnx.data",
        "resources/icons/onnxpack.ico",
        "onnxruntime/capi/onnxruntime_pybind11_state.cpython-311-x86_64-linux-gnu.so",
        "onnxruntime/capi/onnxruntime_pybind11_state.pyd",
        "onnxruntime/capi/libonnxruntime_providers_shared.so",
        "numpy.libs/libscipy_openblas64_-32a4b2a6.so",
    ],
)
def test_needed_files_are_kept(dest: str) -> None:
    assert cfg.keep_entry(dest)
    assert not cfg.is_forbidden(dest)


def test_forbidden_patterns_catch_quick_qml_and_webengine() -> None:
    for rel in (
        "_internal/PySide6/Qt6Quick.dll",
        "_internal/PySide6/Qt6Qml.dll",
        "_internal/PySide6/qml/x",
        "_internal/PySide6/QtWebEngineProcess.exe",
        "_internal/PySide6/Qt/lib/libQt6WebEngineCore.so.6",
    ):
        assert cfg.is_forbidden(rel), rel


def test_unused_qt_modules_are_excluded() -> None:
    for mod in ("QtQml", "QtQuick", "QtQuickWidgets", "QtWebEngineCore", "QtWebEngineWidgets", "QtMultimedia",
                "Qt3DCore", "QtPdf", "QtDesigner", "QtHelp", "QtCharts", "QtDataVisualization", "QtSql",
                "QtNetwork", "QtTest", "QtOpenGL"):  # fmt: skip
        assert f"PySide6.{mod}" in cfg.EXCLUDED_MODULES
    for needed in ("PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets", "PySide6.QtSvg", "onnxruntime", "onnx"):
        assert needed not in cfg.EXCLUDED_MODULES


def _imported_modules(folder: Path, skip: Path | None = None, only: Path | None = None) -> set[str]:
    names: set[str] = set()
    for path in folder.rglob("*.py"):
        if path == skip or (only is not None and path != only):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def test_app_never_imports_an_excluded_module() -> None:
    """A module the spec excludes would be an ImportError in the frozen app only: catch it here."""
    optional_user = ROOT / "core" / "release" / "signing.py"  # the one module allowed to import cfg.OPTIONAL_MODULES
    imported: set[str] = set()
    for folder in (ROOT / "gui", ROOT / "core", ROOT / "cli"):
        imported |= _imported_modules(folder, skip=optional_user)
    excluded = set(cfg.EXCLUDED_MODULES)
    bad = sorted(m for m in imported if any(m == e or m.startswith(e + ".") for e in excluded))
    assert bad == []
    in_signing = _imported_modules(ROOT / "core", only=optional_user)
    bad = sorted(m for m in in_signing if any(m == e or m.startswith(e + ".") for e in excluded)
                 and not any(m == o or m.startswith(o + ".") for o in cfg.OPTIONAL_MODULES))  # fmt: skip
    assert bad == []
    assert set(cfg.OPTIONAL_MODULES) <= excluded


# --- Linux slimming decisions ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("item", "size", "wanted"),
    [
        ("coll/root.res", 300_000, True),
        ("coll/ucadata.icu", 570_000, True),
        ("coll/sv.res", 35_000, True),  # every locale's sort order stays
        ("zone/ja.res", 40_000, True),
        ("zone/de.res", 40_000, False),
        ("zone/pool.res", 200_000, True),
        ("ja.res", 30_000, True),
        ("de_AT.res", 3_000, False),
        ("res_index.res", 4_000, True),
        ("pool.res", 400_000, True),
        ("zoneinfo64.res", 150_000, True),
        ("supplementalData.res", 300_000, True),
        ("curr/ja.res", 20_000, False),
        ("translit/Han_Latin.res", 300_000, False),
        ("brkitr/cjdict.dict", 2_000_000, False),
        ("unames.icu", 290_000, False),
        ("ibm-943_P15A-2003.cnv", 90_000, True),  # Shift_JIS
        ("euc-jp-2007.cnv", 97_000, True),
        ("ibm-5348_P100-1997.cnv", 2_000, True),  # windows-1252: single-byte, small
        ("gb18030.cnv", 232_000, False),
        ("nfkc.nrm", 35_000, True),
    ],
)
def test_icu_trim_keeps_what_qt_uses(item: str, size: int, wanted: bool) -> None:
    assert slim.icu_item_wanted(item, size) is wanted


@pytest.mark.skipif(sys.platform == "win32", reason="executable bits and sbin are POSIX")
def test_slim_finds_icupkg_in_sbin_off_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Debian installs icupkg in /usr/sbin, which a non-root user's PATH lacks (issue 39 item 13): the slim step
    looks there too, and PATH still comes first."""
    sbin, bin_ = tmp_path / "sbin", tmp_path / "bin"
    for folder in (sbin, bin_):
        folder.mkdir()
        tool = folder / "icupkg"
        tool.write_text("#!/bin/sh\n")
        tool.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert slim.find_tool("icupkg", [str(sbin)]) == str(sbin / "icupkg")
    assert slim.find_tool("icupkg", [str(tmp_path / "none")]) is None
    monkeypatch.setenv("PATH", str(bin_))
    assert slim.find_tool("icupkg", [str(sbin)]) == str(bin_ / "icupkg")
    assert "/usr/sbin" in slim.SBIN_DIRS
    # the real one, where this machine has it in sbin only (Debian's icu-devtools)
    if Path("/usr/sbin/icupkg").exists():
        monkeypatch.setenv("PATH", "/usr/local/bin:/usr/bin:/bin")
        assert slim.find_tool("icupkg") is not None


def test_manylinux_policy_never_drops_app_libraries() -> None:
    assert "libstdc++.so.6" in slim.MANYLINUX_SYSTEM_LIBS
    for own in ("libpython3.11.so.1.0", "libcrypto.so.3", "libdbus-1.so.3", "libfreetype.so.6"):
        assert own not in slim.MANYLINUX_SYSTEM_LIBS


# --- the version resource --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("version", "nums"),
    [("0.1.0", (0, 1, 0, 0)), ("1.2", (1, 2, 0, 0)), ("2.0.1rc1", (2, 0, 1, 0)), ("1.2.3.4.5", (1, 2, 3, 4)),
     ("v3.4.5", (3, 4, 5, 0)), ("10.0.0.dev3", (10, 0, 0, 0))],
)  # fmt: skip
def test_numeric_version(version: str, nums: tuple[int, int, int, int]) -> None:
    assert version_info.numeric_version(version) == nums


@pytest.mark.parametrize("bad", ["", "abc", "70000.0.0"])
def test_numeric_version_rejects(bad: str) -> None:
    with pytest.raises(ValueError):
        version_info.numeric_version(bad)


def test_package_version_is_core_version() -> None:
    assert version_info.package_version() == core.__version__


def test_version_file_loads_in_pyinstaller(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PyInstaller evals the file on Windows; do the same here (its module needs pefile, stubbed off Windows)."""
    pytest.importorskip("PyInstaller")
    import PyInstaller.compat as compat

    if sys.platform != "win32":
        monkeypatch.setitem(sys.modules, "pefile", types.ModuleType("pefile"))
        monkeypatch.setattr(compat, "win32api", None, raising=False)
        monkeypatch.delitem(sys.modules, "PyInstaller.utils.win32.versioninfo", raising=False)
    from PyInstaller.utils.win32 import versioninfo

    path = version_info.write_version_file(tmp_path / "v.txt", "onnxpack-gui", version="1.2.3rc1")
    info = versioninfo.load_version_info_from_text_file(str(path))
    assert info.ffi.fileVersionMS == (1 << 16) | 2 and info.ffi.fileVersionLS == 3 << 16
    strings = {s.name: s.val for s in info.kids[0].kids[0].kids}
    assert strings["ProductVersion"] == "1.2.3rc1" == strings["FileVersion"]
    assert strings["OriginalFilename"] == "onnxpack-gui.exe"
    assert len(info.toRaw()) > 500

    default = version_info.write_version_file(tmp_path / "d.txt", "onnxpack")
    assert f"StringStruct('ProductVersion', {core.__version__!r})" in default.read_text(encoding="utf-8")


# --- the spec and the entry scripts ----------------------------------------------------------------------------
def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name]


def _kw(call: ast.Call, key: str) -> object:
    for k in call.keywords:
        if k.arg == key:
            return ast.literal_eval(k.value) if isinstance(k.value, ast.Constant) else ast.unparse(k.value)
    return None


def test_spec_builds_two_executables_in_one_onedir_folder() -> None:
    text = (SPEC_DIR / "onnxpack.spec").read_text(encoding="utf-8")
    tree = ast.parse(text)
    exes = _calls(tree, "EXE")
    onedir = [e for e in exes if _kw(e, "exclude_binaries") is True]
    assert sorted(_kw(e, "name") for e in onedir) == ["cfg.CLI_NAME", "cfg.GUI_NAME"]
    assert {(_kw(e, "name"), _kw(e, "console")) for e in exes} == {("cfg.GUI_NAME", False), ("cfg.CLI_NAME", True)}
    assert "upx=False" in text and "upx=True" not in text and "ONNXPACK_ONEFILE" in text
    (coll,) = _calls(tree, "COLLECT")
    args = [ast.unparse(a) for a in coll.args]
    assert args == ["gui_exe", "gui_a.binaries", "gui_a.datas", "cli_exe", "cli_a.binaries", "cli_a.datas"]
    assert _kw(coll, "upx") is False and _kw(coll, "name") == "cfg.APP_NAME"
    assert len(_calls(tree, "Analysis")) == 1  # one helper, called for both scripts
    assert "cfg.EXCLUDED_MODULES" in text and "cfg.keep_entry" in text
    assert (cfg.APP_NAME, cfg.GUI_NAME, cfg.CLI_NAME) == ("onnxpack", "onnxpack-gui", "onnxpack")


@pytest.mark.parametrize("script", ["onnxpack_cli.py", "onnxpack_gui.py"])
def test_entry_scripts_call_freeze_support_first(script: str) -> None:
    tree = ast.parse((SPEC_DIR / script).read_text(encoding="utf-8"))
    top_imports = [a.name for n in tree.body if isinstance(n, ast.Import) for a in n.names]
    assert set(top_imports) <= {"time", "multiprocessing", "sys"}  # nothing heavy before freeze_support
    main = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main")
    assert ast.unparse(main.body[0]) == "multiprocessing.freeze_support()"
    # --self-test is dispatched by the script itself (CLI) or by onnxpack.gui.app.run (GUI, as when pip-installed)
    assert "--self-test" in ast.unparse(main) or "run(started_at=_STARTED_AT)" in ast.unparse(main)


def test_cli_entry_script_runs_the_cli() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([sys.executable, str(SPEC_DIR / "onnxpack_cli.py"), "--version"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)  # fmt: skip
    assert r.returncode == 0 and core.__version__ in r.stdout


def test_ci_stage_and_windows_workflow_run_the_same_checks() -> None:
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash .ci/freeze" in run
    freeze = (ROOT / ".ci" / "freeze").read_text(encoding="utf-8")
    wf = (ROOT / ".github" / "workflows" / "windows.yml").read_text(encoding="utf-8")
    for text in (freeze, wf):
        assert "build_spec/onnxpack.spec" in text and "--noconfirm --clean" in text
        assert "build_spec/ci_check.py" in text and "--copy-to" in text and "フリーズ テスト" in text
        assert "--zip" in text
    assert "runs-on: windows-latest" in wf and "signtool" in wf and "pytest -q" in wf
    assert "set -euo pipefail" in freeze


def test_windows_stage_builds_and_checks_like_the_workflow() -> None:
    """.ci/run runs .ci/windows, which freezes the same spec and runs the same ci_check.py as the workflow."""
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash .ci/windows" in run and run.index("bash .ci/freeze") < run.index("bash .ci/windows")
    stage = (ROOT / ".ci" / "windows").read_text(encoding="utf-8")
    wf = (ROOT / ".github" / "workflows" / "windows.yml").read_text(encoding="utf-8")
    assert "set -euo pipefail" in stage and "wineboot -i" in stage
    assert "--require-hashes -r requirements/windows.txt" in stage and "sha256sum --check" in stage
    for text in (stage, wf):
        assert "onnxpack.spec" in text and "--noconfirm --clean" in text
        for flag in ("build_spec/ci_check.py", "--copy-to", "フリーズ テスト", "--zip", "--summary", "--reports",
                     "onnxpack-windows-x64.zip"):  # fmt: skip
            assert flag in text, flag
    assert "</dev/null" in stage  # Wine's CPython dies on a regular file as stdin (shared reference)


def test_windows_lock_matches_dev_lock() -> None:
    """requirements/windows.txt: the Windows build set, no markers, every pin hashed and equal to dev.txt's."""
    text = (ROOT / "requirements" / "windows.txt").read_text(encoding="utf-8")
    dev = (ROOT / "requirements" / "dev.txt").read_text(encoding="utf-8")
    pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==([^\s;\\]+)", text, flags=re.M))
    dev_pins: dict[str, set[str]] = {}
    for name, version in re.findall(r"^([A-Za-z0-9_.-]+)==([^\s;\\]+)", dev, flags=re.M):
        dev_pins.setdefault(name, set()).add(version)
    assert {"onnx", "onnxruntime", "numpy", "pyside6-essentials", "pyinstaller", "pefile", "pywin32-ctypes"} <= set(
        pins
    )
    for name, version in pins.items():
        assert version in dev_pins.get(name, set()), name
    assert not re.search(r"^[A-Za-z0-9_.-]+==\S+ ;", text, flags=re.M)  # pip --platform judges markers by the host
    blocks = re.split(r"^(?=[A-Za-z0-9_.-]+==)", text, flags=re.M)[1:]
    assert all("--hash=sha256:" in b for b in blocks)
    assert "requirements/windows.txt" in (ROOT / "requirements" / "lock").read_text(encoding="utf-8")


# --- Wine stand-ins (test prefix only) ------------------------------------------------------------------------
OBJDUMP_SAMPLE = """
The Import Tables (interpreted .idata section contents)
\tDLL Name: KERNEL32.dll
\tvma:  Hint/Ord Member-Name Bound-To
\t9a1000\t  100  GetLastError

\tDLL Name: icuuc.dll
\tvma:  Hint/Ord Member-Name Bound-To
\t9b0000\t  263  ucnv_open
\t9b000c\t  225  ucnv_close
\t9affbe\t    3  UCNV_FROM_U_CALLBACK_SUBSTITUTE

\tDLL Name: MSVCP140.dll
\tvma:  Hint/Ord Member-Name Bound-To
\t9c0000\t   10  _Thrd_yield
"""


def test_standin_imports_are_read_per_dll() -> None:
    assert wine_standins.parse_imports(OBJDUMP_SAMPLE, "ICUUC.DLL") == [
        "ucnv_open", "ucnv_close", "UCNV_FROM_U_CALLBACK_SUBSTITUTE",
    ]  # fmt: skip
    assert wine_standins.parse_imports(OBJDUMP_SAMPLE, "mscms.dll") == []


def test_standin_source_fails_every_function() -> None:
    src = wine_standins.stub_source("icuuc.dll", ["ucnv_open", "ucnv_close", "ucnv_close"])
    assert src.count("ucnv_close(void)") == 1 and "ERROR_NOT_SUPPORTED" in src
    assert "ucnv_open(const char *name, int *err)" in src and "*err = 4" in src  # U_FILE_ACCESS_ERROR
    assert set(wine_standins.STANDINS) == {"icuuc.dll", "mscms.dll"}


def test_vc_runtime_is_collected_and_disabled_by_name() -> None:
    assert {"msvcp140.dll", "vcruntime140.dll", "vcruntime140_1.dll"} <= set(cfg.VC_RUNTIME_DLLS)
    assert cfg.WINE_VC_RUNTIME_OFF.endswith("=n") and "msvcp140," in cfg.WINE_VC_RUNTIME_OFF
    spec = (SPEC_DIR / "onnxpack.spec").read_text(encoding="utf-8")
    assert "binaries=vc_runtime_binaries()" in spec
    assert all(cfg.keep_entry(name) for name in cfg.VC_RUNTIME_DLLS)
    assert ci_check.wine_version() is None or sys.platform == "win32"
    assert ci_check._json_of('noise\n{"ok": true}\n') == {"ok": True} and ci_check._json_of("none") == {}


# --- ci_check helpers ------------------------------------------------------------------------------------------
def test_scrubbed_env_has_only_the_basics(tmp_path: Path) -> None:
    env = ci_check.scrubbed_env(tmp_path)
    for leak in (
        "PYTHONPATH",
        "PYTHONHOME",
        "QT_PLUGIN_PATH",
        "VIRTUAL_ENV",
        "LD_LIBRARY_PATH",
        "QT_QPA_PLATFORM_PLUGIN_PATH",
    ):
        assert leak not in env
    assert env["QT_QPA_PLATFORM"] == "offscreen" and "PATH" in env and env["HOME"] == str(tmp_path)
    assert "venv" not in env["PATH"]


def test_folder_size_forbidden_and_zip(tmp_path: Path) -> None:
    dist = tmp_path / "onnxpack"
    (dist / "_internal" / "PySide6").mkdir(parents=True)
    (dist / "onnxpack").write_bytes(b"x" * 1000)
    (dist / "_internal" / "data.bin").write_bytes(b"y" * 24)
    assert ci_check.folder_size(dist) == 1024
    assert ci_check.forbidden_files(dist) == []
    (dist / "_internal" / "PySide6" / "Qt6Quick.dll").write_bytes(b"")
    assert ci_check.forbidden_files(dist) == ["_internal/PySide6/Qt6Quick.dll"]

    out = tmp_path / "out dir フォルダ" / "b.zip"
    out.parent.mkdir()
    digest = ci_check.zip_folder(dist, out)
    assert (out.parent / "b.zip.sha256").read_text(encoding="utf-8") == f"{digest}  b.zip\n"
    with zipfile.ZipFile(out) as zf:
        assert zf.namelist() == sorted(zf.namelist())
        assert zf.read("onnxpack/onnxpack") == b"x" * 1000
    again = ci_check.zip_folder(dist, tmp_path / "b.zip")
    assert again == digest  # deterministic


def test_json_of_takes_the_document_before_the_progress_lines() -> None:
    """ci_check joins stdout and stderr: the --json document comes first, the progress lines after it."""
    out = '{"ok": true, "files": [{"name": "a.ort"}]}\nonnxpack [   0.0 s] ort: validating {x}\n'
    assert ci_check._json_of(out) == {"ok": True, "files": [{"name": "a.ort"}]}
    assert ci_check._json_of("[1, 2]") == {}


def test_shipped_sample_is_found_in_the_folder(tmp_path: Path) -> None:
    assert ci_check.shipped_sample(tmp_path) is None
    sample = tmp_path / "_internal" / "resources" / "sample"
    sample.mkdir(parents=True)
    assert ci_check.shipped_sample(tmp_path) is None  # no model in it
    (sample / "victory.onnx").write_bytes(b"")
    assert ci_check.shipped_sample(tmp_path) == sample
    assert ci_check.other_release("1.32.0") == "1.20.1" and ci_check.other_release("1.20.1") == "1.20.0"


def test_spec_ships_the_ort_converters_flatbuffers_code_and_ort_metadata() -> None:
    """`onnxpack ort` in the frozen app: onnxruntime.tools.ort_format_model imports ``ort_flatbuffers_py`` from its
    own folder (put on sys.path) and its fbs package globs that folder for its modules, so the spec ships them as
    files where the wheel has them, with their ``flatbuffers`` import; ``--prove-ort`` reads the carried onnxruntime's
    version from its metadata. ci_check runs both on the built app (test_ci_check_runs_ort_and_prove_*)."""
    spec = (SPEC_DIR / "onnxpack.spec").read_text(encoding="utf-8")
    assert "resource_datas() + ort_flatbuffers_datas() + ort_metadata_datas()" in spec
    assert 'ORT_FLATBUFFERS_IMPORTS = ["flatbuffers", "flatbuffers.compat"]' in spec
    assert "HIDDEN += ORT_FLATBUFFERS_IMPORTS" in spec
    import onnxruntime.tools.ort_format_model as ofm

    folder = Path(ofm.__file__).parent
    init = (folder / "__init__.py").read_text(encoding="utf-8")
    assert '"ort_flatbuffers_py"' in init and "sys.path.append" in init  # what the shipped files' place relies on
    fbs = (folder / "ort_flatbuffers_py" / "fbs" / "__init__.py").read_text(encoding="utf-8")
    assert "glob" in fbs  # why a PYZ (no files to glob) cannot hold them
    imported = _imported_modules(folder / "ort_flatbuffers_py")
    # beside the stdlib, only the flatbuffers runtime (its __init__ imports the rest of it: compat, table, ...)
    assert {m.split(".")[0] for m in imported} - {"os", "glob", "ort_flatbuffers_py"} == {"flatbuffers"}
    assert not any(m == e or m.startswith(e + ".") for m in imported for e in cfg.EXCLUDED_MODULES)


# Runs the pip-installed command line the way the frozen app proves: with the onnxruntime it carries, no environment.
_FROZEN_LIKE_CLI = """import sys
from onnxpack.core.runtime import prove
prove._frozen = lambda: True
from onnxpack.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_ci_check_runs_ort_and_prove_like_the_frozen_app(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The checks ci_check adds on the built app (``ort`` on the sample it ships, ``check --prove-ort`` on the
    onnxruntime it carries, another release refused), here with the installed command line proving like it."""
    script = tmp_path / "frozen_like_cli.py"
    script.write_text(_FROZEN_LIKE_CLI, encoding="utf-8")
    home = tmp_path / "home ホーム"
    home.mkdir()
    env = ci_check.scrubbed_env(home)
    c = ci_check._Checks()
    cli = [sys.executable, str(script)]
    sample = ROOT / "resources" / "sample"
    carried = importlib.metadata.version("onnxruntime")
    doc = ci_check.check_ort(c, cli, sample, tmp_path, env, 600)
    assert c.failed == [] and doc["ok"] is True and doc["compare"]["ok"] is True
    assert [f["name"] for f in doc["files"]] == ["required_operators.config", "victory.ort"]
    doc = ci_check.check_prove(c, cli, sample, carried, tmp_path, env, 600)
    assert c.failed == [] and doc["ok"] is True
    out = capsys.readouterr().out
    assert out.count("PASS") == 4 and f"--prove-ort {carried}" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frozen_like_cli.py", "home ホーム"]  # nothing left


def test_ci_check_fails_when_ort_or_prove_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env = ci_check.scrubbed_env(tmp_path)
    c = ci_check._Checks()
    broken = [sys.executable, "-c", "import sys; print('error: no module named ort_flatbuffers_py'); sys.exit(1)"]
    sample = ROOT / "resources" / "sample"
    assert ci_check.check_ort(c, broken, sample, tmp_path, env, 60) == {}
    assert len(c.failed) == 1 and "onnxpack ort" in c.failed[0]
    ci_check.check_prove(c, broken, sample, "1.32.0", tmp_path, env, 60)
    assert len(c.failed) == 3 and "--prove-ort 1.32.0" in c.failed[1] and "--prove-ort 1.20.1" in c.failed[2]
    ci_check.check_prove(c, broken, sample, None, tmp_path, env, 60)  # the self-test named no onnxruntime
    assert len(c.failed) == 4 and "carries (None)" in c.failed[3]
    assert "ort_flatbuffers_py" in capsys.readouterr().out  # the command's output is shown


# --- the self-test, in this process ----------------------------------------------------------------------------
def test_self_test_passes_in_process(qapp: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from onnxpack.gui import selftest

    scratch = tmp_path / "temp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    report_path = tmp_path / "レポート dir" / "self test.json"
    report_path.parent.mkdir()
    report = selftest.run_self_test(report_path)
    doc = json.loads(report_path.read_text(encoding="utf-8"))
    assert doc["schema"] == selftest.SCHEMA and doc["ok"] is True, doc["failed"]
    assert [c["name"] for c in doc["checks"]] == ["qt", "window", "engine", "spawn", "translation", "bundle"]
    assert doc["frozen"] is False and doc["versions"]["onnxpack"] == core.__version__
    for key in ("PySide6", "Qt", "onnx", "onnxruntime", "numpy", "python"):
        assert doc["versions"][key]
    assert "CPUExecutionProvider" in doc["checks"][2]["detail"]["providers"]
    assert doc["checks"][3]["detail"]["pid"] != os.getpid()
    assert doc["checks"][4]["detail"]["qtbase_yes"] != "&Yes"
    assert doc["checks"][5]["detail"]["verify_ok"] is True
    assert isinstance(doc["startup_seconds"], float) and doc["startup_seconds"] > 0
    assert report.ok
    assert list(scratch.iterdir()) == []  # the bundle's temporary folder is gone
    assert sorted(p.name for p in report_path.parent.iterdir()) == ["self test.json"]


def test_self_test_reports_a_failing_check(qapp: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from onnxpack.gui import selftest

    monkeypatch.setattr(selftest, "_bundle_round_trip", lambda tmp: (_ for _ in ()).throw(RuntimeError("boom")))
    report = selftest.run_self_test(None)
    assert not report.ok
    doc = report.to_dict()
    assert doc["failed"] == ["bundle"]
    bundle = doc["checks"][-1]
    assert bundle["error"] == "RuntimeError: boom" and "Traceback" in bundle["detail"]["traceback"]


def test_self_test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from onnxpack.gui import selftest

    assert selftest.main(["a.json", "b.json"]) == 2
    assert selftest.main(["--bogus"]) == 2
    assert selftest.main([str(tmp_path / "missing" / "r.json")]) == 2
    out = capsys.readouterr().out
    assert "usage: onnxpack --self-test" in out and "does not exist" in out


def test_process_start_time_is_before_now() -> None:
    import time

    from onnxpack.gui import selftest

    started, clock = selftest.process_start_time()
    assert clock in ("proc", "GetProcessTimes", "module-import")
    assert 0 <= time.time() - started < 24 * 3600


# --- the frozen build is measured on the locked versions -------------------------------------------------------
def test_ci_check_reads_the_lock(tmp_path: Path) -> None:
    lock = tmp_path / "dev.txt"
    lock.write_text(
        "numpy==2.1.3 ; sys_platform == 'win32' \\\n    --hash=sha256:aa\n"
        "numpy==2.4.0 ; sys_platform != 'win32' \\\n    --hash=sha256:bb\n"
        "PySide6_Essentials==6.12.0 \\\n    --hash=sha256:cc\n    # via onnxpack\n",
        encoding="utf-8",
    )
    assert ci_check.locked_versions(lock) == {"numpy": {"2.1.3", "2.4.0"}, "pyside6-essentials": {"6.12.0"}}
    real = ci_check.locked_versions()
    for dist in ci_check.LOCKED_PACKAGES.values():
        assert real[dist] == {importlib.metadata.version(dist)}  # the venv running the tests is the lock's


def test_size_budget_per_platform() -> None:
    assert cfg.size_budget_mib("linux") == cfg.SIZE_BUDGET_MIB["linux"]
    assert cfg.size_budget_mib("win32") == cfg.SIZE_BUDGET_MIB["win32"]
    assert cfg.size_budget_mib("darwin") == max(cfg.SIZE_BUDGET_MIB.values())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF files")
def test_strip_only_touches_libraries_auditwheel_did_not_edit(tmp_path: Path) -> None:
    assert slim._auditwheel_edited(tmp_path / "numpy.libs" / "libscipy_openblas.so")
    import numpy

    umath = next(Path(numpy.__file__).parent.glob("_core/_multiarray_umath*.so"))
    assert slim._auditwheel_edited(umath)  # RPATH $ORIGIN/../../numpy.libs
    assert slim._strip_mode(str(umath)) is None
    import onnx

    own = next(Path(onnx.__file__).parent.glob("onnx_cpp2py_export*.so"))
    assert slim._strip_mode(str(own)) in (None, "debug")  # never --strip-unneeded on a wheel's file


def test_ci_check_load_cost_needs_both_layouts_measured(tmp_path: Path) -> None:
    """ci_check's bundle check: the frozen bundle measured the end user's load of both layouts (its load-cost
    processes ran), with the installed command line bundling the sample as the frozen one does."""
    r = subprocess.run([sys.executable, "-m", "onnxpack.cli", "bundle", "-o", str(tmp_path / "out"), "--version",
                        "1.0.0", "--json"], capture_output=True, text=True, timeout=600)  # fmt: skip
    assert r.returncode == 0, r.stderr[-2000:]
    doc = ci_check._json_of(r.stdout)
    c = ci_check._Checks()
    assert ci_check.check_load_cost(c, doc) and c.failed == []
    unmeasured = {**doc, "smoke": {**doc["smoke"], "load_cost": {**doc["smoke"]["load_cost"], "source": None}}}
    assert not ci_check.check_load_cost(c, unmeasured) and len(c.failed) == 1
    assert not ci_check.check_load_cost(c, {**doc, "smoke": {}}) and len(c.failed) == 2
