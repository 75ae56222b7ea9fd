"""The import oracle for checker's Python resolution: what the interpreter's own machinery finds for each import.

Usage: python3 python-oracle.py <root> <sys.path entry, relative to root>... < list of repository .py paths
Prints JSON: { "<file>": ["<repository file each import lands on>", ...] } (sorted, in-repository targets only).
Each import is read with `ast`; relative imports are made absolute from the file's package (its dotted name below the
deepest search-path entry holding it, as `__package__` is when it is imported from there); `from X import a` lands on the submodule X.a when one
exists, else on X itself; `importlib.machinery.PathFinder` finds each module on the given path without running it.
"""
import ast
import importlib.machinery
import json
import os
import sys

root = os.path.realpath(sys.argv[1])
search = [os.path.join(root, entry) for entry in sys.argv[2:]]
files = [line.strip() for line in sys.stdin if line.strip()]


def module_name(path):
    """The dotted name the file is imported as: its path below the deepest search-path entry that holds it."""
    parts = path[:-3].split('/')
    base = max((entry for entry in sys.argv[2:] if entry == '.' or path.startswith(entry.rstrip('/') + '/')), key=len, default='.')
    if base != '.':
        parts = parts[len(base.rstrip('/').split('/')):]
    is_package = parts[-1] == '__init__'
    if is_package:
        parts = parts[:-1]
    return '.'.join(parts), is_package


def find(dotted):
    """The file the module `dotted` is loaded from, found part by part on the search path; None when not found."""
    path = search
    origin = None
    for index, part in enumerate(dotted.split('.')):
        spec = importlib.machinery.PathFinder.find_spec(part, path)
        if spec is None:
            return None
        origin = spec.origin if spec.has_location else None
        path = spec.submodule_search_locations
        if path is None and index < len(dotted.split('.')) - 1:
            return None
    if origin is None:
        return None
    origin = os.path.realpath(origin)
    return os.path.relpath(origin, root) if origin.startswith(root + os.sep) else None


result = {}
for path in files:
    tree = ast.parse(open(os.path.join(root, path), encoding='utf-8').read())
    name, is_package = module_name(path)
    package = name if is_package else name.rpartition('.')[0]
    targets = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = find(alias.name)
                if target:
                    targets.add(target)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split('.') if package else []
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                prefix = '.'.join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ''
            for alias in node.names:
                target = (find(prefix + '.' + alias.name) if alias.name != '*' and prefix else None) or (find(prefix) if prefix else None)
                if target:
                    targets.add(target)
    targets.discard(path)
    result[path] = sorted(targets)
print(json.dumps(result, sort_keys=True))
