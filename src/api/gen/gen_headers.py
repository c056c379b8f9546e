#!/usr/bin/env python3
"""Generate Shoal's public headers.

Inputs (all in the source tree):
  src/core/types.def          the type table: C type, TYPENAME, families
  src/api/gen/routines.txt    every OpenSHMEM routine, spec-style (format in that file)
  src/api/gen/extensions.txt  Shoal's shmemx_ routines, same format
  include/*.h.in              the hand-written parts of each header (constants,
                              types, handles); @NAME@ marks where generated text goes

Outputs (in --out): shmem.h, shmemx.h, pshmem.h, mpp/shmem.h, mpp/shmemx.h;
with --csource FILE, the C definitions of the extension routines marked
"alias" (other names of standard routines: each calls the pshmem_ routine);
with --families FILE, the library's and tests' internal header of per-family
row lists: SHOAL_FOR_<FAMILY>(m) expands to m(C type, TYPENAME) per row.
A file is rewritten only when its text changes, so builds stay incremental.

Usage: gen_headers.py --types src/core/types.def --out build/include --version 0.1.0
       gen_headers.py --types src/core/types.def --csource build/src/x_aliases.c
       gen_headers.py --types src/core/types.def --families build/generated/shoal_type_families.h
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
SIZES = ["8", "16", "32", "64", "128"]

# Which standard type an exact-width or library typedef may be, on the Linux
# ABIs Shoal supports.  A _Generic association list (and a C++ overload set)
# may not name one type twice, so a typedef enters a list only when none of
# its possible types is already there.
TYPEDEF_CANDIDATES = {
    "int8": {"schar"}, "int16": {"short"}, "int32": {"int"}, "int64": {"long", "longlong"},
    "uint8": {"uchar"}, "uint16": {"ushort"}, "uint32": {"uint"}, "uint64": {"ulong", "ulonglong"},
    "size": {"uint", "ulong", "ulonglong"}, "ptrdiff": {"int", "long", "longlong"},
}


class TypeRow:
    def __init__(self, ctype, name, families):
        self.ctype, self.name, self.families = ctype, name, families


def read_types(path):
    rows = []
    pattern = re.compile(r"^SHOAL_TYPE\(([^,]+),\s*(\w+),\s*([^)]*)\)\s*$")
    for line in open(path):
        m = pattern.match(line.strip())
        if m:
            families = {f.strip() for f in m.group(3).split("|")}
            rows.append(TypeRow(m.group(1).strip(), m.group(2), families))
    if not rows:
        sys.exit("gen_headers: no SHOAL_TYPE rows in %s" % path)
    return rows


def distinct(rows):
    """The rows whose C types are certainly distinct: see TYPEDEF_CANDIDATES."""
    kept = [r for r in rows if r.name not in TYPEDEF_CANDIDATES]
    taken = {r.name for r in kept}
    for r in rows:
        cands = TYPEDEF_CANDIDATES.get(r.name)
        if cands is not None and not (cands & taken):
            kept.append(r)
            taken |= cands
    order = [r.name for r in rows]
    return sorted(kept, key=lambda r: order.index(r.name))


class Proto:
    """One C prototype: return type, name, parameter list (C text)."""

    def __init__(self, ret, name, params, noreturn=False, deprecated=False, alias=False):
        self.ret, self.name, self.params, self.noreturn = ret, name, params, noreturn
        self.deprecated, self.alias = deprecated, alias

    def param_list(self):
        return [] if self.params.strip() == "void" else split_params(self.params)

    def render(self, prefix=""):
        sep = "" if self.ret.endswith("*") else " "
        lead = ("SHOAL_NORETURN " if self.noreturn else "") + ("SHOAL_DEPRECATED " if self.deprecated else "")
        return "%s%s%s%s%s(%s);" % (lead, self.ret, sep, prefix, self.name, self.params)


def split_params(params):
    return [p.strip() for p in params.split(",")]


def param_name(param):
    return re.findall(r"\w+", param)[-1]


def param_type(param):
    """The type of a parameter declaration, without its name."""
    return re.sub(r"\s*\b\w+$", "", param).replace(" *", "*").strip()


def parse_proto(text):
    m = re.match(r"^(?P<ret>.*?[\s*])(?P<name>\w+)\((?P<params>.*)\);$", text.strip())
    if not m:
        sys.exit("gen_headers: cannot parse prototype: %s" % text)
    return Proto(m.group("ret").strip(), m.group("name"), m.group("params"))


def ctx_name(name, ctx="ctx_"):
    """shmem_int_put -> shmem_ctx_int_put (shmemx_ names alike)."""
    return re.sub(r"^(shmemx?_)", r"\g<1>" + ctx, name, count=1)


def ctx_form(proto):
    params = "shmem_ctx_t ctx" if proto.params == "void" else "shmem_ctx_t ctx, " + proto.params
    return Proto(proto.ret, ctx_name(proto.name), params, alias=proto.alias)


def substitute(proto, row):
    def sub(s):
        return s.replace("TYPENAME", row.name).replace("TYPE", row.ctype)
    return Proto(sub(proto.ret), sub(proto.name), sub(proto.params), proto.noreturn, proto.deprecated, proto.alias)


class Generic:
    """A C11 type-generic interface built from one typed routine line."""

    def __init__(self, name, template, rows, with_ctx):
        self.name, self.template, self.with_ctx = name, template, with_ctx
        self.rows = distinct(rows)
        typed = [i for i, p in enumerate(template.param_list()) if "TYPE" in p]
        self.dispatch = typed[0]
        self.const = template.param_list()[self.dispatch].startswith("const")


class Item:
    def __init__(self, kind, text="", protos=(), ctx_protos=()):
        self.kind, self.text, self.protos, self.ctx_protos = kind, text, list(protos), list(ctx_protos)


def read_routines(path, types):
    """Items (headings, comments, blank lines, prototype groups) and generics."""
    items, generics = [], []
    for raw in open(path):
        line = raw.rstrip("\n")
        if line.startswith("#"):
            continue
        if not line.strip():
            items.append(Item("blank"))
        elif line.startswith("== "):
            items.append(Item("chapter", line[3:].strip()))
        elif line.startswith("-- "):
            items.append(Item("comment", line[3:].strip()))
        else:
            flags, text = [], line
            m = re.match(r"^\[([^\]]*)\]\s*(.*)$", line)
            if m:
                flags, text = m.group(1).split(), m.group(2)
            items.append(expand(parse_proto(text), flags, types, generics))
    return items, generics


def expand(template, flags, types, generics):
    families = [f for f in flags if f.isupper() and f != "SIZE"]
    template.noreturn = "noreturn" in flags
    template.deprecated = "deprecated" in flags
    template.alias = "alias" in flags
    with_ctx = "ctx" in flags
    if families:
        rows = [r for r in types if r.families & set(families)]
        if not rows:
            sys.exit("gen_headers: no type of families %s (src/core/types.def)" % families)
        protos = [substitute(template, r) for r in rows]
    elif "SIZE" in flags:
        protos = [Proto(template.ret, template.name.replace("SIZE", s), template.params, alias=template.alias)
                  for s in SIZES]
    else:
        protos = [template]
    for f in flags:
        if f.startswith("generic="):
            if not families:
                sys.exit("gen_headers: %s: a generic needs a type family" % template.name)
            generics.append(Generic(f[len("generic="):], template, rows, with_ctx))
    return Item("protos", protos=protos, ctx_protos=[ctx_form(p) for p in protos] if with_ctx else [])


# ---------------------------------------------------------------- rendering

def render_prototypes(items, prefix=""):
    out = []
    for it in items:
        if it.kind == "chapter":
            while out and out[-1] == "":
                out.pop()
            out += ["", "", "/* " + "=" * 72, " * " + it.text, " * " + "=" * 72 + " */", ""]
        elif it.kind == "comment":
            out.append("/* %s */" % it.text)
        elif it.kind == "blank":
            if out and out[-1] != "":
                out.append("")
        else:
            out += [p.render(prefix) for p in it.protos + it.ctx_protos]
    return "\n".join(out).strip("\n")


def pointer(ctype, const):
    return ("const " if const else "") + ctype + " *"


def macro_lines(lines, width=100):
    """Continue every line but the last with an aligned backslash."""
    body = [l.ljust(width - 2) + " \\" for l in lines[:-1]]
    return "\n".join(body + [lines[-1]])


def associations(g, fn, indent, default=None):
    lines = []
    for r in g.rows:
        name = fn(r)
        if g.const:
            lines.append("%s%s: %s," % (indent, pointer(r.ctype, True), name))
        lines.append("%s%s: %s," % (indent, pointer(r.ctype, False), name))
    if default:
        lines.append("%sdefault: %s," % (indent, default))
    lines[-1] = lines[-1].rstrip(",")
    return lines


def render_c11(generics):
    out = []
    for g in generics:
        typed = lambda r, ctx="": ctx_name(substitute(g.template, r).name, ctx)
        lines = ["#define %s(...)" % g.name, "    _Generic(SHOAL_G_PTR%d(__VA_ARGS__)," % g.dispatch]
        if g.with_ctx:
            # Not PTR: without a context this argument need not be a pointer.
            lines.append("        shmem_ctx_t: _Generic(SHOAL_G_ARG%d(__VA_ARGS__)," % (g.dispatch + 1))
            lines += associations(g, lambda r: typed(r, "ctx_"), " " * 12, "shoal_generic_no_such_type")
            lines[-1] += "),"
        lines += associations(g, typed, " " * 8)
        lines[-1] += ")(__VA_ARGS__)"
        out.append(macro_lines(lines))
    return "\n\n".join(out)


def cxx_overload(g, proto, c_functions):
    """An inline C++ overload named like the generic, calling the typed routine."""
    params = proto.param_list()
    if c_functions.get(g.name) == [param_type(p) for p in params]:
        return None   # the C function of that name already has this signature
    call = "%s(%s)" % (proto.name, ", ".join(param_name(p) for p in params))
    body = ("return %s;" if proto.ret != "void" else "%s;") % call
    sep = "" if proto.ret.endswith("*") else " "
    return "inline %s%s%s(%s) { %s }" % (proto.ret, sep, g.name, proto.params, body)


def render_cxx(generics, items):
    c_functions = {p.name: [param_type(x) for x in p.param_list()]
                   for it in items for p in it.protos + it.ctx_protos}
    out = []
    for g in generics:
        lines = ["/* %s */" % g.name]
        for r in g.rows:
            proto = substitute(g.template, r)
            forms = [proto] + ([ctx_form(proto)] if g.with_ctx else [])
            lines += [l for l in (cxx_overload(g, f, c_functions) for f in forms) if l]
        out.append("\n".join(lines))
    return "\n\n".join(out)


def render_aliases(items):
    """C definitions of the "alias" routines: shmemx_NAME calls pshmem_NAME."""
    out = ["/* Generated by src/api/gen/gen_headers.py from src/api/gen/extensions.txt: the shmemx_",
           " * names of standard routines (SHOAL_API also makes their pshmemx_ twins). */",
           "#include <pshmem.h>", "#include <shmemx.h>", "", "#include \"api/api.h\"", ""]
    for it in items:
        for p in it.protos + it.ctx_protos:
            if not p.alias:
                continue
            call = "p%s(%s)" % (p.name.replace("shmemx_", "shmem_", 1),
                                ", ".join(param_name(x) for x in p.param_list()))
            body = ("return %s;" if p.ret != "void" else "%s;") % call
            out.append("SHOAL_API(%s, %s, (%s)) { %s }" % (p.ret, p.name, p.params, body))
    return "\n".join(out) + "\n"


def render_families(types):
    """One list macro per family, the rows in the table's order: a typed
    routine family is written once as m(T, TYPENAME) and instantiated with
    SHOAL_FOR_<FAMILY>(m)."""
    out = ["/* Generated from src/core/types.def by src/api/gen/gen_headers.py --families: do not edit.",
           " * SHOAL_FOR_<FAMILY>(m) expands to m(C type, TYPENAME) for each row of that family. */",
           "#ifndef SHOAL_TYPE_FAMILIES_H", "#define SHOAL_TYPE_FAMILIES_H", ""]
    for family in sorted(set().union(*(r.families for r in types))):
        calls = ["m(%s, %s)" % (r.ctype, r.name) for r in types if family in r.families]
        out.append("#define SHOAL_FOR_%s(m) \\\n    %s" % (family, " \\\n    ".join(calls)))
        out.append("")
    out.append("#endif")
    return "\n".join(out) + "\n"


def fill(template_path, values):
    text = open(template_path).read()
    for key, value in values.items():
        text = text.replace("@%s@" % key, value)
    left = re.findall(r"@[A-Z_0-9]+@", text)
    if left:
        sys.exit("gen_headers: %s: no value for %s" % (template_path, ", ".join(left)))
    return text


def write_if_changed(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path) and open(path).read() == text:
        return
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--types", required=True, help="src/core/types.def")
    ap.add_argument("--out", help="directory for shmem.h and friends")
    ap.add_argument("--version", help="Shoal's version, e.g. 0.1.0 (with --out)")
    ap.add_argument("--csource", help="C file for the extension routines marked alias")
    ap.add_argument("--families", help="C header of the SHOAL_FOR_<FAMILY> row lists")
    args = ap.parse_args()
    if not args.csource and not args.families and not (args.out and args.version):
        ap.error("give --out and --version, --csource or --families")

    types = read_types(args.types)
    if args.families:
        write_if_changed(args.families, render_families(types))
    items, generics = read_routines(os.path.join(HERE, "routines.txt"), types)
    x_items, x_generics = read_routines(os.path.join(HERE, "extensions.txt"), types)
    if args.csource:
        write_if_changed(args.csource, render_aliases(x_items))
    if args.out:
        write_headers(args, items, generics, x_items, x_generics)


def write_headers(args, items, generics, x_items, x_generics):
    major, minor, patch = (args.version.split(".") + ["0", "0"])[:3]
    values = {
        "VERSION": args.version, "VERSION_MAJOR": major, "VERSION_MINOR": minor, "VERSION_PATCH": patch,
        "PROTOTYPES": render_prototypes(items),
        "C11_GENERICS": render_c11(generics),
        "CXX_OVERLOADS": render_cxx(generics, items),
        "X_PROTOTYPES": render_prototypes(x_items),
        "X_C11_GENERICS": render_c11(x_generics),
        "X_CXX_OVERLOADS": render_cxx(x_generics, x_items),
        "P_PROTOTYPES": render_prototypes(items, "p"),
        "PX_PROTOTYPES": render_prototypes(x_items, "p"),
    }
    include = os.path.join(SOURCE_ROOT, "include")
    for name in ("shmem.h", "shmemx.h", "pshmem.h"):
        write_if_changed(os.path.join(args.out, name), fill(os.path.join(include, name + ".in"), values))
    for name in ("shmem.h", "shmemx.h"):
        write_if_changed(os.path.join(args.out, "mpp", name),
                         "/* mpp/%s: the pre-1.1 location of <%s>, still required by the spec. */\n"
                         "#include \"../%s\"\n" % (name, name, name))


if __name__ == "__main__":
    main()
