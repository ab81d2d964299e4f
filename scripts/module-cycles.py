#!/usr/bin/env python3
"""Module map and import cycles of the workspace's crates, from their `use` lines.

usage: scripts/module-cycles.py [--map]

Each source file is a module (`a/b.rs` and `a/b/mod.rs` are `a::b`). A module imports another
when it names it in a `use` path (`crate::x::y`, `super::y`, `self::y`) or in an inline
`crate::x::...` path. A parent naming its own child (`mod y;`, `y::f()`) is not an import
edge: Rust puts the two in one file tree, and the parent composing its children is the
point. Cycles are reported between sibling modules (and their subtrees): `a` imports `b`
and `b` imports `a`, directly or through others at the same level. Exits 1 when there is
one.
"""
import os
import re
import sys
import tomllib

def workspace_crates(manifest="Cargo.toml"):
    """Every crate of the workspace, as {name: source folder}: the root package and each
    `members` entry of the root manifest (read with Python's TOML reader, so a crate added to
    the workspace is checked without editing this script). Exits 2 when a member has no
    `src` folder or no package name: the check must never skip a crate silently."""
    with open(manifest, "rb") as f:
        root = tomllib.load(f)
    dirs = ["."] if "package" in root else []
    dirs += root.get("workspace", {}).get("members", [])
    crates = {}
    for d in dirs:
        with open(os.path.join(d, "Cargo.toml"), "rb") as f:
            package = tomllib.load(f).get("package", {})
        src = os.path.normpath(os.path.join(d, "src"))
        if "name" not in package or not os.path.isdir(src):
            print(f"workspace member {d}: no package name or no src folder", file=sys.stderr)
            sys.exit(2)
        crates[package["name"]] = src
    return crates


def module_of(root, path):
    rel = os.path.relpath(path, root)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return tuple(rel)


def strip_comments(text):
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def paths_in(text):
    """Every path a file names: the prefixes of `use` trees and inline paths."""
    out = []
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        tree = re.sub(r"\s+", "", m.group(1))
        stack, cur = [], ""
        prefixes = [""]
        for c in tree:
            if c == "{":
                stack.append(prefixes[-1] + cur)
                prefixes.append(prefixes[-1] + cur)
                cur = ""
            elif c == "}":
                if cur:
                    out.append(prefixes[-1] + cur)
                prefixes.pop()
                stack.pop()
                cur = ""
            elif c == ",":
                if cur:
                    out.append(prefixes[-1] + cur)
                cur = ""
            else:
                cur += c
        if cur:
            out.append(prefixes[-1] + cur)
    out += re.findall(r"\b((?:crate|super)(?:::\w+)+)", text)
    return out


def split(module, path, modules):
    """The module a path starts in and the segments after it: `crate::`, `super::`, `self::`
    or a child module's name (a relative `use`)."""
    parts = [p for p in path.split("::") if p]
    if not parts:
        return None
    head = parts[0].split(" as ")[0]
    if head == "crate":
        return (), parts[1:]
    if head in ("super", "self"):
        base, rest = module, parts
        while rest and rest[0] == "super":
            base, rest = base[:-1], rest[1:]
        if rest and rest[0] == "self":
            rest = rest[1:]
        return base, rest
    if module + (head,) in modules:
        return module, parts
    return None


def resolve(module, path, modules, reexports, depth=0):
    """The module that defines what a path names: its longest known module prefix, followed
    through the `use` items of that module (re-exports) to where the name is defined."""
    start = split(module, path, modules)
    if start is None:
        return None
    base, rest = start
    for k in range(len(rest), -1, -1):
        cand = base + tuple(rest[:k])
        if cand in modules:
            left = rest[k:]
            if left and depth < 8:
                name = left[0].split(" as ")[0]
                via = reexports.get(cand, {}).get(name)
                if via is not None and via != cand:
                    return resolve((), "crate::" + "::".join(via + tuple(left[1:])) if via else "crate", modules, reexports, depth + 1) or via
            return cand
    return None


def use_items(text):
    """The paths of a file's `use` statements only."""
    out = []
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        out += paths_in("use " + m.group(1) + ";")
    return out


def graph(root):
    modules, edges, texts, reexports = {}, {}, {}, {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            if f.endswith(".rs"):
                p = os.path.join(dirpath, f)
                modules[module_of(root, p)] = p
    for m, p in modules.items():
        texts[m] = strip_comments(open(p, encoding="utf-8").read())
    # Where each name a module brings in with `use` is defined (one level; `resolve`
    # follows chains).
    for m, text in texts.items():
        for path in use_items(text):
            start = split(m, path, modules)
            if start is None:
                continue
            base, rest = start
            if not rest:
                continue
            last = rest[-1]
            alias = last.split(" as ")[-1] if " as " in last else last
            for k in range(len(rest) - 1, -1, -1):
                cand = base + tuple(rest[:k])
                if cand in modules:
                    if cand != m and alias not in ("*", "self"):
                        reexports.setdefault(m, {})[alias] = cand
                    break
    for m, text in texts.items():
        for path in paths_in(text):
            target = resolve(m, path, modules, reexports)
            if target is None or target == m:
                continue
            # A module naming a descendant of its own is composition, not an import.
            if target[: len(m)] == m:
                continue
            edges.setdefault(m, set()).add(target)
    return modules, edges


def sibling_cycles(modules, edges):
    """Cycles among the children of each module, each child standing for its subtree."""
    found = []
    parents = {m[:-1] for m in modules if m}
    for parent in sorted(parents):
        kids = sorted({m[: len(parent) + 1] for m in modules if len(m) > len(parent) and m[: len(parent)] == parent})
        g = {k: set() for k in kids}
        for a, targets in edges.items():
            if a[: len(parent)] != parent or len(a) <= len(parent):
                continue
            ka = a[: len(parent) + 1]
            for b in targets:
                if b[: len(parent)] == parent and len(b) > len(parent):
                    kb = b[: len(parent) + 1]
                    if kb != ka:
                        g[ka].add(kb)
        # Tarjan's strongly connected components.
        index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]

        def visit(v):
            index[v] = low[v] = counter[0]
            counter[0] += 1
            stack.append(v)
            on.add(v)
            for w in sorted(g[v]):
                if w not in index:
                    visit(w)
                    low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))

        for k in kids:
            if k not in index:
                visit(k)
        found += out
    return found


def name(m, crate):
    return "::".join((crate.replace("-", "_"),) + m)


def main():
    show_map = "--map" in sys.argv
    bad = 0
    for crate, root in workspace_crates().items():
        modules, edges = graph(root)
        if show_map:
            print(f"# {crate}")
            for m in sorted(modules):
                targets = sorted(edges.get(m, ()))
                shown = ", ".join("::".join(t) or "(root)" for t in targets)
                print(f"  {'::'.join(m) or '(root)'} -> {shown}")
        for cycle in sibling_cycles(modules, edges):
            bad += 1
            print(f"cycle in {crate}: " + " <-> ".join(name(c, crate) for c in cycle))
    if bad == 0:
        print("no module cycles")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
