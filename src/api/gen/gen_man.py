#!/usr/bin/env python3
"""Generate Shoal's manual pages (section 3) from the routine list and type table.

One page per routine family (shmem_put covers every typed, sized, mem, context
and C11 generic form); every other routine name gets a one-line ".so" page
that points to its family's page, so `man shmem_long_put` works too.  The
synopses are the header's own prototypes (the same routines.txt lines
gen_headers.py expands), so a page cannot drift from what shmem.h declares.

Usage: gen_man.py --types src/core/types.def --out build/share/man --version 0.1.0
"""
import argparse
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_headers as gh  # noqa: E402  (the routine list's reader)

# What each family does, in a sentence or two.  The key is the family's name
# without "shmem_"; the forms it comes in are described from the routine list.
SUMMARY = {
    "init": "Starts the OpenSHMEM library on the calling PE; collective over all PEs of the program.",
    "my_pe": "Returns the number of the calling PE in SHMEM_TEAM_WORLD.",
    "n_pes": "Returns the number of PEs running the program.",
    "finalize": "Ends the calling PE's use of the library; collective over all PEs. "
                "Shoal finalizes implicitly at exit if a program forgets to.",
    "query_initialized": "Sets *initialized to nonzero when the library is initialized and not yet finalized.",
    "global_exit": "Ends every PE of the program with the given exit status.",
    "pe_accessible": "Returns nonzero when PE pe can be reached with OpenSHMEM operations.",
    "addr_accessible": "Returns nonzero when addr is a symmetric address that PE pe can access.",
    "ptr": "Returns a local pointer through which PE pe's copy of a symmetric object can be read and "
           "written with loads and stores, or NULL when the PE is not on a shared-memory path.",
    "team_ptr": "Like shmem_ptr, with pe numbered in team.",
    "info_get_version": "Returns the version of the OpenSHMEM specification the library implements.",
    "info_get_name": "Copies the library's vendor string (at most SHMEM_MAX_NAME_LEN bytes) into name.",
    "start_pes": "Deprecated: initializes the library; use shmem_init.",
    "_my_pe": "Deprecated: same as shmem_my_pe.",
    "_num_pes": "Deprecated: same as shmem_n_pes.",
    "init_thread": "Starts the library asking for a level of thread support; *provided receives the level given.",
    "query_thread": "Returns the level of thread support the library was started with.",
    "malloc": "Allocates a symmetric object of size bytes on every PE; collective over SHMEM_TEAM_WORLD.",
    "free": "Releases a symmetric object; collective over SHMEM_TEAM_WORLD.",
    "realloc": "Resizes a symmetric object, keeping its contents; collective over SHMEM_TEAM_WORLD.",
    "align": "Allocates a symmetric object whose address is a multiple of alignment; collective.",
    "malloc_with_hints": "Allocates a symmetric object, with hints about how it will be used; collective.",
    "calloc": "Allocates a zero-filled symmetric array of count elements of size bytes; collective.",
    "shmalloc": "Deprecated: same as shmem_malloc.",
    "shfree": "Deprecated: same as shmem_free.",
    "shrealloc": "Deprecated: same as shmem_realloc.",
    "shmemalign": "Deprecated: same as shmem_align.",
    "team_my_pe": "Returns the calling PE's number in team.",
    "team_n_pes": "Returns the number of PEs in team.",
    "team_get_config": "Returns the configuration a team was created with.",
    "team_translate_pe": "Translates a PE number of one team into the number of the same PE in another team.",
    "team_split_strided": "Creates a team of size PEs from parent_team, starting at start and stepping by "
                          "stride; collective over the parent team.",
    "team_split_2d": "Splits a team into a two-dimensional grid of row and column teams; collective.",
    "team_destroy": "Destroys a team and the contexts created on it; collective over the team.",
    "ctx_create": "Creates a communication context on SHMEM_TEAM_WORLD.",
    "team_create_ctx": "Creates a communication context whose PE numbers are those of team.",
    "ctx_destroy": "Completes a context's outstanding operations and frees it.",
    "ctx_get_team": "Returns the team a context was created on.",
    "put": "Copies nelems elements from local source to dest on PE pe.  Returns once source may be reused; "
           "the data is delivered by the next shmem_quiet.",
    "p": "Writes one value to dest on PE pe.",
    "iput": "Copies strided elements: element i of source (stride sst) goes to element i of dest (stride dst) "
            "on PE pe.",
    "ibput": "Copies nelems blocks of bsize elements with strides between blocks, to PE pe.",
    "get": "Copies nelems elements from source on PE pe into local dest; returns when they have arrived.",
    "g": "Reads one value from source on PE pe.",
    "iget": "Copies strided elements from PE pe into local dest.",
    "ibget": "Copies nelems blocks of bsize elements with strides between blocks, from PE pe.",
    "put_nbi": "Starts copying nelems elements to PE pe and returns at once; source may be reused and the "
               "data is delivered after the next shmem_quiet.",
    "get_nbi": "Starts copying nelems elements from PE pe and returns at once; dest holds them after the next "
               "shmem_quiet.",
    "atomic_fetch": "Atomically reads source on PE pe.",
    "atomic_set": "Atomically writes value to dest on PE pe.",
    "atomic_compare_swap": "Atomically writes value to dest on PE pe if it equals cond; returns the old value.",
    "atomic_swap": "Atomically writes value to dest on PE pe and returns the old value.",
    "atomic_fetch_inc": "Atomically adds one to dest on PE pe and returns the old value.",
    "atomic_inc": "Atomically adds one to dest on PE pe.",
    "atomic_fetch_add": "Atomically adds value to dest on PE pe and returns the old value.",
    "atomic_add": "Atomically adds value to dest on PE pe.",
    "atomic_fetch_and": "Atomically ANDs value into dest on PE pe and returns the old value.",
    "atomic_and": "Atomically ANDs value into dest on PE pe.",
    "atomic_fetch_or": "Atomically ORs value into dest on PE pe and returns the old value.",
    "atomic_or": "Atomically ORs value into dest on PE pe.",
    "atomic_fetch_xor": "Atomically XORs value into dest on PE pe and returns the old value.",
    "atomic_xor": "Atomically XORs value into dest on PE pe.",
    "atomic_fetch_nbi": "Nonblocking shmem_atomic_fetch: *fetch holds the value after the next shmem_quiet.",
    "atomic_compare_swap_nbi": "Nonblocking shmem_atomic_compare_swap: *fetch holds the old value after the "
                               "next shmem_quiet.",
    "atomic_swap_nbi": "Nonblocking shmem_atomic_swap: *fetch holds the old value after the next shmem_quiet.",
    "atomic_fetch_inc_nbi": "Nonblocking shmem_atomic_fetch_inc: *fetch holds the old value after the next "
                            "shmem_quiet.",
    "atomic_fetch_add_nbi": "Nonblocking shmem_atomic_fetch_add: *fetch holds the old value after the next "
                            "shmem_quiet.",
    "atomic_fetch_and_nbi": "Nonblocking shmem_atomic_fetch_and: *fetch holds the old value after the next "
                            "shmem_quiet.",
    "atomic_fetch_or_nbi": "Nonblocking shmem_atomic_fetch_or: *fetch holds the old value after the next "
                           "shmem_quiet.",
    "atomic_fetch_xor_nbi": "Nonblocking shmem_atomic_fetch_xor: *fetch holds the old value after the next "
                            "shmem_quiet.",
    "fetch": "Deprecated name of shmem_atomic_fetch.",
    "set": "Deprecated name of shmem_atomic_set.",
    "swap": "Deprecated name of shmem_atomic_swap.",
    "cswap": "Deprecated name of shmem_atomic_compare_swap.",
    "finc": "Deprecated name of shmem_atomic_fetch_inc.",
    "inc": "Deprecated name of shmem_atomic_inc.",
    "fadd": "Deprecated name of shmem_atomic_fetch_add.",
    "add": "Deprecated name of shmem_atomic_add.",
    "put_signal": "Copies nelems elements to PE pe, then updates the signal word sig_addr there (set or add, "
                  "per sig_op), so that a PE seeing the signal also sees the data.",
    "put_signal_nbi": "Nonblocking shmem_put_signal: returns at once; complete after the next shmem_quiet.",
    "signal_fetch": "Atomically reads a local signal word.",
    "signal_add": "Atomically adds signal to the signal word sig_addr on PE pe.",
    "signal_set": "Atomically writes signal to the signal word sig_addr on PE pe.",
    "signal_wait_until": "Waits until a local signal word compares true with cmp_value; returns its value.",
    "ctx_session_start": "Tells the library that a burst of small operations on ctx follows (a hint).",
    "ctx_session_stop": "Ends a session begun by shmem_ctx_session_start.",
    "barrier_all": "Completes every outstanding operation of the calling PE, then waits until all PEs arrive.",
    "sync_all": "Waits until all PEs arrive; it does not complete outstanding operations.",
    "team_sync": "Waits until all PEs of team arrive.",
    "barrier": "Deprecated active-set barrier: completes outstanding operations and synchronizes the PEs "
               "PE_start, PE_start + 2^logPE_stride, ...; use shmem_barrier_all or shmem_team_sync.",
    "sync": "Deprecated active-set synchronization; use shmem_team_sync.",
    "alltoall": "Every PE of team sends a block of nelems elements to every PE (block j of source to PE j).",
    "alltoalls": "Strided shmem_alltoall: elements within each block are dst and sst apart.",
    "broadcast": "Copies nelems elements from PE_root's source to dest on every PE of team.",
    "collect": "Concatenates each PE's source (of possibly different lengths) into dest on every PE of team, "
               "in PE order.",
    "fcollect": "Concatenates each PE's nelems elements into dest on every PE of team, in PE order.",
    "and_reduce": "Bitwise AND of the PEs' arrays, element by element, delivered to every PE of team.",
    "or_reduce": "Bitwise OR of the PEs' arrays, element by element, delivered to every PE of team.",
    "xor_reduce": "Bitwise XOR of the PEs' arrays, element by element, delivered to every PE of team.",
    "max_reduce": "Maximum of the PEs' arrays, element by element, delivered to every PE of team.",
    "min_reduce": "Minimum of the PEs' arrays, element by element, delivered to every PE of team.",
    "sum_reduce": "Sum of the PEs' arrays, element by element, delivered to every PE of team.",
    "prod_reduce": "Product of the PEs' arrays, element by element, delivered to every PE of team.",
    "sum_inscan": "Inclusive prefix sum over the PEs of team: PE i receives the sum of PEs 0..i.",
    "sum_exscan": "Exclusive prefix sum over the PEs of team: PE i receives the sum of PEs 0..i-1.",
    "and_to_all": "Deprecated active-set AND reduction; use shmem_and_reduce.",
    "or_to_all": "Deprecated active-set OR reduction; use shmem_or_reduce.",
    "xor_to_all": "Deprecated active-set XOR reduction; use shmem_xor_reduce.",
    "max_to_all": "Deprecated active-set maximum reduction; use shmem_max_reduce.",
    "min_to_all": "Deprecated active-set minimum reduction; use shmem_min_reduce.",
    "sum_to_all": "Deprecated active-set sum reduction; use shmem_sum_reduce.",
    "prod_to_all": "Deprecated active-set product reduction; use shmem_prod_reduce.",
    "wait_until": "Waits until a local variable, changed by other PEs, compares true with cmp_value.",
    "wait_until_all": "Waits until every selected variable of an array compares true.",
    "wait_until_any": "Waits until one selected variable compares true; returns its index.",
    "wait_until_some": "Waits until at least one selected variable compares true; returns how many, "
                       "with their indices.",
    "wait_until_all_vector": "shmem_wait_until_all with one comparison value per variable.",
    "wait_until_any_vector": "shmem_wait_until_any with one comparison value per variable.",
    "wait_until_some_vector": "shmem_wait_until_some with one comparison value per variable.",
    "test": "Returns nonzero if a local variable compares true with cmp_value; does not wait.",
    "test_all": "Returns nonzero if every selected variable compares true; does not wait.",
    "test_any": "Returns the index of a selected variable that compares true, or SIZE_MAX; does not wait.",
    "test_some": "Returns how many selected variables compare true, with their indices; does not wait.",
    "test_all_vector": "shmem_test_all with one comparison value per variable.",
    "test_any_vector": "shmem_test_any with one comparison value per variable.",
    "test_some_vector": "shmem_test_some with one comparison value per variable.",
    "wait": "Deprecated: waits until a local variable differs from cmp_value.",
    "fence": "Orders delivery: puts, AMOs and signals to each PE issued before the fence arrive before those "
             "issued after it.",
    "quiet": "Completes every outstanding put, AMO, signal and nonblocking get of the calling PE.",
    "pe_quiet": "Completes the outstanding operations to the listed PEs only.",
    "clear_lock": "Releases a distributed lock.",
    "set_lock": "Acquires a distributed lock (a symmetric long), waiting if another PE holds it.",
    "test_lock": "Acquires a distributed lock if it is free and returns 0; otherwise returns 1 at once.",
    "pcontrol": "Passes a profiling level to a profiling tool; the library itself does nothing with it.",
    "shmemx_barrier_all_start": "Shoal extension: split-phase barrier.  start announces arrival; test is nonzero "
                                "once all PEs have arrived; wait blocks until then.",
    "shmemx_team_sync_start": "Shoal extension: split-phase team synchronization (start, test, wait).",
    "shmemx_team_split_color": "Shoal extension: splits a team by color, ordering members by key, like "
                               "MPI_Comm_split; PEs passing SHMEMX_COLOR_UNDEFINED get SHMEM_TEAM_INVALID.",
    "shmemx_wtime": "Shoal extension: wall-clock time in seconds.",
    "shmemx_collective_algorithm": "Shoal extension: makes a collective (barrier, broadcast, reduce, collect, "
                                   "fcollect or alltoall) use the named algorithm, or auto, from the next call "
                                   "on; every PE makes the same call between the same two collectives. Returns 0, "
                                   "or -1 and changes nothing for an unknown name.",
    "clear_cache_inv": "Deprecated, does nothing: caches are coherent on the machines Shoal runs on.",
    "set_cache_inv": "Deprecated, does nothing: caches are coherent on the machines Shoal runs on.",
    "clear_cache_line_inv": "Deprecated, does nothing: caches are coherent on the machines Shoal runs on.",
    "set_cache_line_inv": "Deprecated, does nothing: caches are coherent on the machines Shoal runs on.",
    "udcflush": "Deprecated, does nothing: caches are coherent on the machines Shoal runs on.",
    "udcflush_line": "Deprecated, does nothing: caches are coherent on the machines Shoal runs on.",
    "shmemx_ibput": "Sandia OpenSHMEM's name for shmem_ibput, kept so programs written for it build.",
    "shmemx_ibget": "Sandia OpenSHMEM's name for shmem_ibget, kept so programs written for it build.",
    "shmemx_signal_add": "Sandia OpenSHMEM's name for shmem_signal_add.",
    "shmemx_signal_set": "Sandia OpenSHMEM's name for shmem_signal_set.",
    "shmemx_sum_inscan": "Sandia OpenSHMEM's name for shmem_sum_inscan.",
    "shmemx_sum_exscan": "Sandia OpenSHMEM's name for shmem_sum_exscan.",
    "shmemx_pcntr_get_all": "Shoal extension: Sandia OpenSHMEM's communication counters (operations issued and "
                            "completed by the calling PE), counted when SHOAL_COUNTERS, SHOAL_PROFILE or "
                            "SHOAL_TRACE is set; otherwise they read 0.",
}

# Routines of one phase-split set share a page.
SAME_PAGE = {"shmemx_barrier_all_test": "shmemx_barrier_all_start",
             "shmemx_barrier_all_wait": "shmemx_barrier_all_start",
             "shmemx_team_sync_test": "shmemx_team_sync_start",
             "shmemx_team_sync_wait": "shmemx_team_sync_start",
             "shmemx_pcntr_get_issued_write": "shmemx_pcntr_get_all",
             "shmemx_pcntr_get_issued_read": "shmemx_pcntr_get_all",
             "shmemx_pcntr_get_completed_write": "shmemx_pcntr_get_all",
             "shmemx_pcntr_get_completed_read": "shmemx_pcntr_get_all",
             "shmemx_pcntr_get_completed_target": "shmemx_pcntr_get_all"}


def family_key(template_name):
    """The family's page: shmem_TYPENAME_put, shmem_putSIZE, shmem_putmem -> shmem_put."""
    m = re.match(r"^(shmemx?_)(.*)$", template_name)
    if not m:
        return template_name
    rest = m.group(2).replace("TYPENAME_", "").replace("SIZE", "")
    key = m.group(1) + re.sub(r"mem(?=_|$)", "", rest)
    return SAME_PAGE.get(key, key)


def summary(key, chapter):
    """The family's sentence; a family nobody described yet still gets a page."""
    text = SUMMARY.get(key[len("shmem_"):] if key.startswith("shmem_") else key)
    if text is None:
        print("gen_man: no SUMMARY for %s (src/api/gen/gen_man.py); a generic description is used" % key,
              file=sys.stderr)
        text = "One of the %s." % chapter
    return text


class Family:
    def __init__(self, key, chapter, header):
        self.key, self.chapter, self.header = key, chapter, header
        self.groups = []        # (template Proto, expanded protos, flags, note)
        self.generics = []

    def names(self):
        return [p.name for _, protos, _, _ in self.groups for p in protos] + [g.name for g in self.generics]


def collect(path, types, header, families):
    """Read one routine list into families (in order), keeping each line's template."""
    templates = []
    original = gh.expand

    def keep(template, flags, types_, generics):
        item = original(template, flags, types_, generics)
        templates.append((template, flags))
        return item

    gh.expand = keep
    try:
        items, generics = gh.read_routines(path, types)
    finally:
        gh.expand = original
    chapter, note, lines = "", "", iter(templates)
    for it in items:
        if it.kind == "chapter":
            chapter, note = it.text, ""
        elif it.kind == "comment":
            note = it.text
        elif it.kind == "blank":
            note = ""
        else:
            template, flags = next(lines)
            key = family_key(template.name)
            fam = families.setdefault(key, Family(key, chapter, header))
            fam.groups.append((template, it.protos + it.ctx_protos, flags, note))
    for g in generics:
        families[family_key(g.template.name)].generics.append(g)


def merge_variants(families):
    """shmem_ctx_X joins shmem_X; the deprecated shmem_X32/X64 join shmem_X."""
    for key in list(families):
        base = re.sub(r"(?<=[a-z])(32|64)$", "", re.sub(r"^shmem_ctx_", "shmem_", key))
        if base != key and base in families:
            families[base].groups += families.pop(key).groups


# ---------------------------------------------------------------- roff

def roff_escape(text):
    return text.replace("\\", "\\e").replace("-", "\\-")


def synopsis(fam):
    out = [".nf", "#include <%s>" % fam.header, ""]
    for g in fam.generics:
        t = g.template
        out.append("/* C11 and C++: selected by the type of the TYPE argument */")
        out.append(roff_escape(gh.Proto(t.ret, g.name, t.params).render()))
        if g.with_ctx:
            out.append(roff_escape(gh.Proto(t.ret, g.name, "shmem_ctx_t ctx, " + t.params).render()))
        out.append("")
    shown = ""
    for template, protos, flags, note in fam.groups:
        if note and note != shown:
            out.append("/* %s */" % roff_escape(note))
        shown = note
        if any(f.isupper() for f in flags):
            out.append(roff_escape(template.render()))
            if "ctx" in flags:
                out.append(roff_escape(gh.ctx_form(template).render()))
        else:
            out += [roff_escape(p.render()) for p in protos]
        out.append("")
    return out + [".fi"]


def forms_text(fam, types):
    text = []
    flags = {f for _, _, fl, _ in fam.groups for f in fl}
    families = {f for f in flags if f.isupper() and f != "SIZE"}
    if families:
        text.append("In the typed forms TYPENAME names the element type TYPE; the types are listed under "
                    "TYPES below.")
    if "SIZE" in flags:
        text.append("The sized forms (SIZE = %s) move elements of that many bits." % ", ".join(gh.SIZES))
    if any(re.search(r"mem(_|$)", t.name[len("shmem_"):]) for t, _, _, _ in fam.groups):
        text.append("The mem forms count bytes.")
    if "ctx" in flags:
        text.append("The forms taking a shmem_ctx_t ctx issue the operation on that context; the others use "
                    "SHMEM_CTX_DEFAULT.")
    if fam.generics:
        text.append("C11 and C++ programs may call the generic name, which picks the typed routine from the "
                    "type of its TYPE argument.")
    if any("deprecated" in note for _, _, _, note in fam.groups):
        text.append("Routines marked deprecated are kept for old programs; new code should use the "
                    "replacement named above.")
    return text


def types_table(fam, types):
    families = {f for _, _, fl, _ in fam.groups for f in fl if f.isupper() and f != "SIZE"}
    rows = [r for r in types if r.families & families]
    if not rows:
        return []
    out = [".SH TYPES", ".TS", "l l.", "TYPE\tTYPENAME"]
    out += ["%s\t%s" % (r.ctype, r.name) for r in rows]
    return out + [".TE"]


def render_page(fam, types, see_also, version):
    name = fam.key
    text = summary(fam.key, fam.chapter)
    title = re.sub(r"^(Deprecated|Shoal extension): ", "", re.split(r"\.\s", text)[0].rstrip("."))
    lines = ["'\\\" t", '.TH %s 3 "" "Shoal %s" "OpenSHMEM 1.6"' % (roff_escape(name), version),
             ".SH NAME", "%s \\- %s" % (roff_escape(name), roff_escape(title)),
             ".SH SYNOPSIS"] + synopsis(fam)
    lines += [".SH DESCRIPTION", roff_escape(text)]
    for para in forms_text(fam, types):
        lines += [".PP", roff_escape(para)]
    lines += [".PP", roff_escape("Part of the %s of OpenSHMEM 1.6 (%s)." % (fam.chapter, fam.header))]
    lines += types_table(fam, types)
    if see_also:
        lines += [".SH SEE ALSO", ", ".join("\\fB%s\\fR(3)" % roff_escape(s) for s in see_also)]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--types", required=True, help="src/core/types.def")
    ap.add_argument("--out", required=True, help="the man directory (man3/ is made in it)")
    ap.add_argument("--version", required=True, help="Shoal's version, e.g. 0.1.0")
    args = ap.parse_args()

    types = gh.read_types(args.types)
    families = {}
    collect(os.path.join(HERE, "routines.txt"), types, "shmem.h", families)
    collect(os.path.join(HERE, "extensions.txt"), types, "shmemx.h", families)
    merge_variants(families)

    man3 = os.path.join(args.out, "man3")
    shutil.rmtree(man3, ignore_errors=True)   # a routine that left the list leaves no page behind
    os.makedirs(man3)
    chapters = {}
    for fam in families.values():
        chapters.setdefault(fam.chapter, []).append(fam.key)
    for fam in families.values():
        name = fam.key
        see = [n for n in chapters[fam.chapter] if n != name][:12]
        with open(os.path.join(man3, name + ".3"), "w") as f:
            f.write(render_page(fam, types, see, args.version))
        for alias in sorted(set(fam.names()) - {name}):
            with open(os.path.join(man3, alias + ".3"), "w") as f:
                f.write(".so man3/%s.3\n" % name)


if __name__ == "__main__":
    main()
