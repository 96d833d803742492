"""The type stubs shipped with the package describe everything the module offers."""
import ast
from pathlib import Path

import hermes
import hermes._native as native

STUB = Path(hermes.__file__).resolve().parent / "_native.pyi"


def stub_tree():
    return ast.parse(STUB.read_text())


def defined_names(body):
    names = set()
    for node in body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets)
    return names


def test_the_package_ships_stubs_and_the_typed_marker():
    assert STUB.is_file()
    assert (STUB.parent / "py.typed").is_file()


def test_every_public_name_of_the_module_has_a_stub():
    public = {name for name in dir(native) if not name.startswith("_")}
    assert public - defined_names(stub_tree().body) == set()


def test_every_public_member_of_each_class_has_a_stub():
    classes = {node.name: node for node in stub_tree().body if isinstance(node, ast.ClassDef)}
    for name in ("Agent", "ContextCompressor", "Runtime", "SessionStore", "TurnStream", "Tool"):
        real = {m for m in dir(getattr(native, name)) if not m.startswith("_")}
        assert real - defined_names(classes[name].body) == set(), name


def test_the_agent_accepts_every_keyword_its_stub_names(tmp_path):
    init = next(f for f in next(n for n in stub_tree().body
                                if isinstance(n, ast.ClassDef) and n.name == "Agent").body
                if isinstance(f, ast.FunctionDef) and f.name == "__init__")
    # A closed loopback port: a context-window probe fails at once.
    base = {"model": "m", "base_url": "http://127.0.0.1:9/v1", "home": str(tmp_path),
            "persist_sessions": False}
    for arg in init.args.kwonlyargs:
        kwargs = dict(base)
        kwargs.setdefault(arg.arg, None)  # None means "not given" for every keyword.
        hermes.Agent(**kwargs)


def test_public_classes_and_functions_have_docstrings():
    for name in dir(native):
        if name.startswith("_"):
            continue
        obj = getattr(native, name)
        if callable(obj):
            assert (obj.__doc__ or "").strip(), name
