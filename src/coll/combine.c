/* Reduction kernels, one per (type, operator) the spec defines, generated
 * from the type table (core/types.def).  Integer sums and products wrap
 * (computed in unsigned arithmetic: exact, and no undefined overflow).
 * Operators a type does not have are compiled harmlessly but never
 * installed: _Generic maps such types to a stand-in so every branch type-checks. */
#include <complex.h>

#include <shoal_type_families.h>

#include "coll_internal.h"

#define IS_REAL_FLOAT(x) _Generic((x), float: 1, double: 1, long double: 1, default: 0)
#define IS_COMPLEX(x) _Generic((x), float _Complex: 1, double _Complex: 1, default: 0)
/* Comparable stand-in: complex types have no order (and no max/min). */
#define ORD(x) _Generic((x), float _Complex: 0, double _Complex: 0, default: (x))
/* Bit-pattern stand-in: floating types have no bitwise operators (and no and/or/xor). */
#define BITS(x) _Generic((x), float: 0, double: 0, long double: 0, float _Complex: 0, double _Complex: 0, default: (x))

#define WRAP_ADD(T, a, b) ((T)((unsigned long long)(a) + (unsigned long long)(b)))
#define WRAP_MUL(T, a, b) ((T)((unsigned long long)(a) * (unsigned long long)(b)))

typedef void (*combine_fn)(void *out, const void *a, const void *b, size_t n);

/* Elements are copied in and out: a vector that travels in a cache line
 * behind its 8-byte stamp is only 8-byte aligned, less than long double
 * or double complex need (UBSan found it); memcpy of a fixed size
 * compiles to the same loads and stores. */
#define KERNEL(T, name, opname, expr)                                                       \
    __attribute__((optimize("O3"))) static void name##_##opname(void *out_, const void *a_,  \
                                                               const void *b_, size_t n)    \
    {                                                                                       \
        char *out = out_;                                                                   \
        const char *a = a_, *b = b_;                                                        \
        for (size_t i = 0; i < n; i++) {                                                    \
            T x, y, r;                                                                      \
            memcpy(&x, a + i * sizeof(T), sizeof(T));                                       \
            memcpy(&y, b + i * sizeof(T), sizeof(T));                                       \
            r = (expr);                                                                     \
            memcpy(out + i * sizeof(T), &r, sizeof(T));                                     \
        }                                                                                   \
    }

#define SHOAL_TYPE(T, name, families)                                                                 \
    KERNEL(T, name, and, (T)(BITS(x) & BITS(y)))                                                      \
    KERNEL(T, name, or, (T)(BITS(x) | BITS(y)))                                                       \
    KERNEL(T, name, xor, (T)(BITS(x) ^ BITS(y)))                                                      \
    KERNEL(T, name, max, ORD(x) < ORD(y) ? y : x)                                                     \
    KERNEL(T, name, min, ORD(y) < ORD(x) ? y : x)                                                     \
    KERNEL(T, name, sum, (IS_REAL_FLOAT(x) || IS_COMPLEX(x)) ? (T)(x + y) : WRAP_ADD(T, x, y))        \
    KERNEL(T, name, prod, (IS_REAL_FLOAT(x) || IS_COMPLEX(x)) ? (T)(x * y) : WRAP_MUL(T, x, y))
#include "../core/types.def"
#undef SHOAL_TYPE

struct type_row {
    size_t size;
    combine_fn fn[7];
};

static const struct type_row types[SHOAL_DT_COUNT] = {
#define SHOAL_TYPE(T, name, families)                                                                  \
    [SHOAL_DT_##name] = {sizeof(T), {name##_and, name##_or, name##_xor, name##_max, name##_min,        \
                                     name##_sum, name##_prod}},
#include "../core/types.def"
#undef SHOAL_TYPE
};

/* Which types each class of operator (bitwise, max/min, sum/prod) takes,
 * in the team and in the active-set forms. */
enum op_class { CLASS_BIT, CLASS_MINMAX, CLASS_ARITH, CLASS_AS_BIT, CLASS_AS_MINMAX, CLASS_AS_ARITH, CLASS_COUNT };
#define MEMBER(T, name) [SHOAL_DT_##name] = true,
static const bool takes[CLASS_COUNT][SHOAL_DT_COUNT] = {
    [CLASS_BIT] = {SHOAL_FOR_RBIT(MEMBER)},
    [CLASS_MINMAX] = {SHOAL_FOR_RMINMAX(MEMBER)},
    [CLASS_ARITH] = {SHOAL_FOR_RARITH(MEMBER)},
    [CLASS_AS_BIT] = {SHOAL_FOR_ASBIT(MEMBER)},
    [CLASS_AS_MINMAX] = {SHOAL_FOR_ASMINMAX(MEMBER)},
    [CLASS_AS_ARITH] = {SHOAL_FOR_ASARITH(MEMBER)},
};
#undef MEMBER

size_t coll_dtype_size(enum shoal_dtype dt)
{
    return types[dt].size;
}

bool coll_op_valid(enum shoal_op op, enum shoal_dtype dt, bool active_set)
{
    int c = op <= SHOAL_OP_XOR ? CLASS_BIT : op <= SHOAL_OP_MIN ? CLASS_MINMAX : CLASS_ARITH;
    if (active_set)
        c += CLASS_AS_BIT;
    return (unsigned)dt < SHOAL_DT_COUNT && takes[c][dt];
}

void coll_combine3(enum shoal_op op, enum shoal_dtype dt, void *out, const void *a, const void *b, size_t count)
{
    if (count)
        types[dt].fn[op](out, a, b, count);
}

void coll_combine(enum shoal_op op, enum shoal_dtype dt, void *acc, const void *in, size_t count)
{
    coll_combine3(op, dt, acc, acc, in, count);
}
