"""What goes into the frozen onedir app: names, excluded modules, the TOC filter and the budgets.

Imported by ``onnxpack.spec`` (at build time), ``ci_check.py`` (after the build) and the tests, so the
three always agree. Pure stdlib: it must import without PyInstaller or Qt.
"""

from __future__ import annotations

import re
import sys

__all__ = [
    "APP_NAME",
    "CLI_NAME",
    "EXCLUDED_MODULES",
    "FORBIDDEN_FILE_PATTERNS",
    "GUI_NAME",
    "KEPT_QT_TRANSLATIONS",
    "OPTIONAL_MODULES",
    "SIZE_BUDGET_MIB",
    "SIZE_TARGET_MB",
    "STARTUP_BUDGET_S",
    "VC_RUNTIME_DLLS",
    "WINE_VC_RUNTIME_OFF",
    "exe_name",
    "is_forbidden",
    "keep_entry",
    "size_budget_mib",
]

APP_NAME = "onnxpack"  # the onedir folder: dist/onnxpack/
GUI_NAME = "onnxpack-gui"  # windowed (console=False)
CLI_NAME = "onnxpack"  # console

# Size of the whole onedir folder. The target is 150 MB. CI checks a budget per platform, in MiB, measured
# on the versions pinned in requirements/dev.txt (ci_check.py fails when the frozen versions differ from the
# lock), so a change in size comes from a change we made. Linux x86_64 with onnxruntime 1.32.0, PySide6 6.11.3,
# numpy 2.1.3, onnx 1.23.2: 170.5 MiB (onnxruntime 35, Qt + PySide6 41, numpy + OpenBLAS 35, ICU 11, onnx 7,
# Python 11, two executables 9.4, libcrypto 4.5, other system libraries 7; see docs/performance.md); the code's growth
# took it to 172.2 MiB, and leaving out the stdlib the app never loads (EXCLUDED_MODULES) to 170.6 MiB; the ORT-format
# converter's flatbuffers code and onnxruntime's metadata (`ort` and `check --prove-ort` in the frozen app) add
# 0.3 MiB: 170.9 MiB. Windows, built from requirements/windows.txt by .ci/windows under Wine: 121.3 MiB (127.2 MB)
# before those 0.3 MiB.
SIZE_TARGET_MB = 150.0
SIZE_BUDGET_MIB = {"linux": 172.0, "win32": 125.0}
STARTUP_BUDGET_S = 2.0  # process start -> main window shown

# The Microsoft Visual C++ runtime the Windows build needs (onnxruntime, Qt, shiboken import msvcp140/vcruntime140),
# collected explicitly at the top of _internal/ from PySide6's wheel (it ships the redistributable's DLLs), so the
# app starts on a Windows without the VC++ redistributable whatever the DLL search order. ci_check.py checks they
# are there and, under Wine, runs the GUI self-test with Wine's own copies disabled (WINE_VC_RUNTIME_OFF).
VC_RUNTIME_DLLS = (
    "vcruntime140.dll", "vcruntime140_1.dll", "msvcp140.dll", "msvcp140_1.dll", "msvcp140_2.dll", "concrt140.dll",
)  # fmt: skip
WINE_VC_RUNTIME_OFF = ",".join(name.removesuffix(".dll") for name in VC_RUNTIME_DLLS) + "=n"

# Python modules the app never imports. Listing Qt modules that PySide6-Essentials lacks (WebEngine,
# Multimedia, 3D, Charts, ...) keeps the build lean when the full PySide6 (Addons) is installed instead.
_QT_UNUSED = (
    "Qt3DAnimation", "Qt3DCore", "Qt3DExtras", "Qt3DInput", "Qt3DLogic", "Qt3DRender", "QtAxContainer",
    "QtBluetooth", "QtCanvasPainter", "QtCharts", "QtConcurrent", "QtDataVisualization", "QtDBus", "QtDesigner",
    "QtGraphs", "QtGraphsWidgets", "QtHelp", "QtHttpServer", "QtLabsStyleKit", "QtLocation", "QtMultimedia",
    "QtMultimediaWidgets", "QtNetwork", "QtNetworkAuth", "QtNfc", "QtOpenGL", "QtOpenGLWidgets", "QtPdf",
    "QtPdfWidgets", "QtPositioning", "QtPrintSupport", "QtQml", "QtQmlFeatures", "QtQuick", "QtQuick3D",
    "QtQuickControls2", "QtQuickTest", "QtQuickWidgets", "QtRemoteObjects", "QtScxml", "QtSensors",
    "QtSerialBus", "QtSerialPort", "QtSpatialAudio", "QtSql", "QtStateMachine", "QtSvgWidgets", "QtTest",
    "QtTextToSpeech", "QtUiTools", "QtWebChannel", "QtWebEngineCore", "QtWebEngineQuick", "QtWebEngineWidgets",
    "QtWebSockets", "QtWebView", "QtXml",
)  # fmt: skip

# Signing (onnxpack[sign]) is not frozen yet: ~30 MB with Sigstore and its dependencies, over the size budget.
# Only core/release/signing.py imports these, behind signing.available(); a frozen app asked to sign says how to get it.
OPTIONAL_MODULES = (
    "model_signing", "sigstore", "sigstore_models", "tuf", "securesystemslib", "rfc3161_client", "OpenSSL",
    "cryptography",
)  # fmt: skip

EXCLUDED_MODULES: tuple[str, ...] = (
    *(f"PySide6.{m}" for m in _QT_UNUSED),
    # other GUI toolkits / Qt bindings and heavy optional imports of our dependencies
    "tkinter", "_tkinter", "PyQt5", "PyQt6", "PySide2",
    "IPython", "matplotlib", "pandas", "scipy", "sympy", "torch", "tensorflow", "jax",
    *OPTIONAL_MODULES,
    "onnxruntime.transformers", "onnxruntime.quantization", "onnxruntime.training",
    "onnx.backend.test", "onnx.reference", "numpy.f2py", "numpy.distutils", "numpy._core._simd",
    # test and dev tooling
    "pytest", "_pytest", "pytestqt", "mypy", "ruff", "jsonschema", "setuptools", "pip", "pydoc_data",
    "lib2to3", "ensurepip", "idlelib", "turtledemo",
    # stdlib the app never loads (none is imported by bundle, verify --smoke, check --prove-ort, smoke, ort, merge,
    # a release folder's bundle or the GUI self-test, their children included: python -X importtime); each is
    # collected twice, once in each executable's PYZ (about 1 MiB in all)
    "asyncio", "unittest", "doctest", "pydoc", "pdb", "_pydecimal", "numpy.testing",
    # no network and no interactive prompt: TLS (libssl + Kerberos) and readline stay out
    "ssl", "_ssl", "readline",
)  # fmt: skip

# Qt's own translations we ship (our UI languages: English is the source, Japanese is translated).
KEPT_QT_TRANSLATIONS = ("ja",)

# Files (destination names, '/' separated, case-insensitive) dropped from the build.
_DROP = [
    # Qt libraries we never load: QML/Quick, designer, help, SQL, test, web, multimedia, 3D, pdf, labs...
    r"(^|/)(lib)?qt6(qml|quick|labs|lottie|designer|help|sql|test|uitools|pdf|webengine|webchannel|websockets|"
    r"multimedia|3d|charts|datavisualization|graphs|virtualkeyboard|shadertools|statemachine|"
    r"waylandcompositor|wleglcompositor|wlshellintegration|eglfs|concurrent|network|opengl|printsupport|xml)"
    r"[^/]*\.(so[.\d]*|dll|dylib)$",
    r"(^|/)qtwebengine[^/]*$",
    r"(^|/)(lib)?qt6(opengl|openglwidgets)[^/]*$",
    r"(^|/)opengl32sw\.dll$",  # 20 MB software OpenGL fallback: widgets render with the raster engine
    r"(^|/)d3dcompiler_\d+\.dll$",
    # Qt plug-ins we don't need (keep platforms, imageformats, iconengines, styles, themes, input contexts).
    r"(^|/)plugins/(qmltooling|sqldrivers|tls|networkinformation|designer|generic|egldeviceintegrations|"
    r"printsupport|multimedia|position|sensors|webview|vectorimageformats|qmllint|canbus|texttospeech|"
    r"wayland-graphics-integration-server|renderers|sceneparsers|geometryloaders|help)/",
    r"(^|/)plugins/platforminputcontexts/[^/]*virtualkeyboard[^/]*$",
    # GTK3 theme: drags in cairo/pango/gdk-pixbuf/atk (8 MB) yet cannot load without the system's GTK 3;
    # Qt's own Fusion look and the xdg-desktop-portal theme (kept) cover Linux desktops.
    r"(^|/)plugins/platformthemes/[^/]*gtk[^/]*$",
    r"(^|/)plugins/platforms/[^/]*(eglfs|vnc|linuxfb|minimalegl|vkkhrdisplay|direct2d|webgl)[^/]*$",
    r"(^|/)plugins/imageformats/[^/]*(tiff|webp|tga|wbmp|icns|pdf|jp2|mng|gif|jpeg)[^/]*$",
    r"(^|/)plugins/xcbglintegrations/",
    # Wayland: Qt falls back to xcb (every Wayland desktop runs XWayland); saves 2 MB of client plug-ins
    r"(^|/)plugins/wayland-[^/]*/", r"(^|/)plugins/platforms/[^/]*wayland[^/]*$", r"(^|/)(lib)?qt6wayland[^/]*$",
    # QML files, Qt metatypes and the Qt tools that wheels carry
    r"(^|/)qt/qml/", r"(^|/)qml/", r"(^|/)metatypes/", r"(^|/)libexec/",
    # onnxruntime's C-API library: the Python extension embeds the runtime and never loads it (29 MB)
    r"(^|/)onnxruntime/capi/(lib)?onnxruntime\.(so[.\d]*|dll|dylib)$",
    r"(^|/)onnxruntime/capi/[^/]*(cuda|tensorrt|rocm|migraphx|openvino|dnnl|qnn|vitisai)[^/]*$",
]  # fmt: skip
_DROP_RE = re.compile("|".join(f"(?:{p})" for p in _DROP), re.IGNORECASE)
_QT_QM_RE = re.compile(r"(^|/)translations/(?P<stem>[a-z_]+?)_(?P<lang>[a-z]{2,3})(_[a-z]{2})?\.qm$", re.IGNORECASE)

# What must never be in the folder (checked after the build on every OS).
FORBIDDEN_FILE_PATTERNS = (
    r"qt6?webengine", r"qt6?quick", r"qt6?qml", r"qt6?designer", r"qtwebengineprocess", r"(^|/)qml/",
    r"opengl32sw\.dll$",
)  # fmt: skip
_FORBIDDEN_RE = re.compile("|".join(FORBIDDEN_FILE_PATTERNS), re.IGNORECASE)


def keep_entry(dest_name: str) -> bool:
    """True when a TOC entry (destination path inside the folder) belongs in the build."""
    name = dest_name.replace("\\", "/")
    if _DROP_RE.search(name):
        return False
    m = _QT_QM_RE.search(name)
    if m and "/resources/" not in f"/{name}":
        return m.group("lang").lower() in KEPT_QT_TRANSLATIONS
    return True


def is_forbidden(rel_path: str) -> bool:
    """True for a file of the built folder that must not have got in (QML/Quick/WebEngine/...)."""
    return bool(_FORBIDDEN_RE.search(rel_path.replace("\\", "/")))


def exe_name(base: str, platform: str = sys.platform) -> str:
    return f"{base}.exe" if platform.startswith("win") else base


def size_budget_mib(platform: str = sys.platform) -> float:
    """The size budget (MiB) of the onedir folder on ``platform``."""
    for prefix, budget in SIZE_BUDGET_MIB.items():
        if platform.startswith(prefix):
            return budget
    return max(SIZE_BUDGET_MIB.values())
