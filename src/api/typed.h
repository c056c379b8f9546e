/* What the typed API files share: family tests for X-macros over
 * core/types.def, the pairing of each routine with its shmem_ctx_ form, and
 * the context/PE translation every one-sided routine does.
 *
 * A typed routine family is written once, as a macro of (C type, TYPENAME),
 * and instantiated for the rows of types.def that belong to its family:
 *
 *     #define SHOAL_TYPE(T, N, F) SHOAL_IF(AMO, F)(DEFINE_ADD, T, N)
 *     #include "../core/types.def"
 *     #undef SHOAL_TYPE
 */
#ifndef SHOAL_API_TYPED_H
#define SHOAL_API_TYPED_H

#include "api.h"

/* ---- family tests ----
 * A row's families read "RMA | AMO | AMOX".  The preprocessor cannot test
 * bits, so each family name expands to ",NAME": the families argument then
 * splits into "", "RMA |", "AMO |", "AMOX", and SHOAL_IF(AMO, F) pastes
 * SHOAL_IS_AMO_ to each piece.  Only SHOAL_IS_AMO_AMO is a macro; it
 * expands to "~, 1," and SHOAL_SECOND picks that 1 (swallowing any "|").
 * The family names are therefore reserved in every file including this. */
#define RMA ,RMA
#define AMO ,AMO
#define AMOX ,AMOX
#define AMOBIT ,AMOBIT
#define RBIT ,RBIT
#define RMINMAX ,RMINMAX
#define RARITH ,RARITH
#define P2PDEP ,P2PDEP
#define AMOXDEP ,AMOXDEP
#define AMODEP ,AMODEP
#define WAITDEP ,WAITDEP
#define ASBIT ,ASBIT
#define ASMINMAX ,ASMINMAX
#define ASARITH ,ASARITH

#define SHOAL_IS_RMA_RMA ~, 1,
#define SHOAL_IS_AMO_AMO ~, 1,
#define SHOAL_IS_AMOX_AMOX ~, 1,
#define SHOAL_IS_AMOBIT_AMOBIT ~, 1,
#define SHOAL_IS_RBIT_RBIT ~, 1,
#define SHOAL_IS_RMINMAX_RMINMAX ~, 1,
#define SHOAL_IS_RARITH_RARITH ~, 1,
#define SHOAL_IS_P2PDEP_P2PDEP ~, 1,
#define SHOAL_IS_AMOXDEP_AMOXDEP ~, 1,
#define SHOAL_IS_AMODEP_AMODEP ~, 1,
#define SHOAL_IS_WAITDEP_WAITDEP ~, 1,
#define SHOAL_IS_ASBIT_ASBIT ~, 1,
#define SHOAL_IS_ASMINMAX_ASMINMAX ~, 1,
#define SHOAL_IS_ASARITH_ASARITH ~, 1,

#define SHOAL_CAT(a, b) SHOAL_CAT_(a, b)
#define SHOAL_CAT_(a, b) a##b
#define SHOAL_SECOND(...) SHOAL_SECOND_(__VA_ARGS__, , )
#define SHOAL_SECOND_(a, b, ...) b
#define SHOAL_IS(q, piece) SHOAL_SECOND(SHOAL_CAT(q, piece))
/* Up to 16 pieces per row; the padding pieces never match. */
#define SHOAL_ANY(q, ...) SHOAL_ANY_(q, __VA_ARGS__, , , , , , , , , , , , , , , , )
#define SHOAL_ANY_(q, a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, ...)                        \
    SHOAL_IS(q, a) SHOAL_IS(q, b) SHOAL_IS(q, c) SHOAL_IS(q, d) SHOAL_IS(q, e) SHOAL_IS(q, f)      \
    SHOAL_IS(q, g) SHOAL_IS(q, h) SHOAL_IS(q, i) SHOAL_IS(q, j) SHOAL_IS(q, k) SHOAL_IS(q, l)      \
    SHOAL_IS(q, m) SHOAL_IS(q, n) SHOAL_IS(q, o) SHOAL_IS(q, p)
#define SHOAL_WHEN_(m, ...)
#define SHOAL_WHEN_1(m, ...) m(__VA_ARGS__)

/* SHOAL_IF(FAMILY, families)(m, args...): m(args...) when the row is in FAMILY. */
#define SHOAL_IF(fam, ...) SHOAL_CAT(SHOAL_WHEN_, SHOAL_ANY(SHOAL_IS_##fam##_, __VA_ARGS__))

/* The transfer sizes of the sized routines (put8 ... put128), in bits. */
#define SHOAL_SIZES(X) X(8) X(16) X(32) X(64) X(128)

/* ---- context pairs ----
 * SHOAL_API_CTX(ret, NAME, (params), { body }) defines shmem_ctx_NAME with
 * a leading shmem_ctx_t ctx, and shmem_NAME running the same body on the
 * default context.  Both call shared inline workers, so neither form costs
 * a call more than the other. */
#define SHOAL_ARGS(...) __VA_ARGS__
#define SHOAL_API_CTX(ret, name, params, body)                                                    \
    SHOAL_API(ret, shmem_ctx_##name, (shmem_ctx_t ctx, SHOAL_ARGS params)) body                     \
    SHOAL_API(ret, shmem_##name, params)                                                           \
    {                                                                                              \
        shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;                                                       \
        body                                                                                       \
    }

/* The user-facing name of the routine being defined, for error messages:
 * every entry point is defined as pshmem_NAME (see SHOAL_API). */
#define SHOAL_ROUTINE (__func__ + 1)

/* The world PE that PE pe of ctx's team is.  Always rejects
 * SHMEM_CTX_INVALID and PE numbers outside the context's team (a compare
 * and a branch that is never taken: no measurable cost on a put, see
 * DESIGN.md "Argument checks"), since either would fault far from the call. */
_Noreturn void shoal_api_bad_ctx_pe(const char *routine, shmem_ctx_t ctx, int pe);
SHOAL_INLINE int shoal_api_pe(const char *routine, shmem_ctx_t ctx, int pe)
{
    struct shoal_ctx *c = shoal_ctx_of(ctx);
    if (SHOAL_UNLIKELY(!c || (unsigned)pe >= (unsigned)c->team->n_pes))
        shoal_api_bad_ctx_pe(routine, ctx, pe);
    return shoal_ctx_pe(c, pe);
}

#endif
