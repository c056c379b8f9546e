/* Helpers shared by the API tests: the spec's type tables written out
 * independently of src/core/types.def (so a wrong table row is caught), and
 * the neighbours and test patterns every test uses. */
#ifndef SHOAL_API_TEST_H
#define SHOAL_API_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <shmem.h>

#include "check.h"

/* Table stdrmatypes: X(TYPE, TYPENAME) */
#define RMA_TYPES(X)                                                                               \
    X(float, float) X(double, double) X(long double, longdouble) X(char, char)                     \
    X(signed char, schar) X(short, short) X(int, int) X(long, long) X(long long, longlong)         \
    X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong) \
    X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16) X(int32_t, int32)           \
    X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) \
    X(size_t, size) X(ptrdiff_t, ptrdiff)

/* Table stdamotypes (also the point-to-point types) */
#define AMO_TYPES(X)                                                                               \
    X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint) X(unsigned long, ulong)  \
    X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32)       \
    X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)

/* The deprecated rows of Table p2psynctypes (the rest are stdamotypes) */
#define P2PDEP_TYPES(X) X(short, short) X(unsigned short, ushort)

/* Table extamotypes = stdamotypes + float, double */
#define AMOX_TYPES(X) X(float, float) X(double, double) AMO_TYPES(X)

/* Table bitamotypes */
#define AMOBIT_TYPES(X)                                                                            \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int32_t, int32) \
    X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)

static int me, npes, next_pe, prev_pe;   /* set by test_init */

static inline void test_init(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    next_pe = (me + 1) % npes;
    prev_pe = (me + npes - 1) % npes;
}

/* A value every type holds exactly (0..99): element i of PE pe's data. */
static inline int pattern(int pe, size_t i)
{
    return (int)((pe * 131 + i * 7 + 3) % 100);
}

#endif
