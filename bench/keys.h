/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/keys.h - the keys of the hash-table benchmarks (bench/hash.c,
 * bench/rhash.c): key i of a table, a random stream, and the hash both
 * RCU tables use for rculfhash.  Include after <rculist.h>.
 */
#ifndef BENCH_KEYS_H
#define BENCH_KEYS_H

/* Key i: a bijection of 0..2^64-1 (splitmix64), so keys are distinct. */
static inline unsigned long key_of(unsigned long i)
{
	unsigned long long z = i + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (unsigned long)(z ^ (z >> 31));
}

/* xorshift64: a reader's or updater's stream of key indexes. */
static inline unsigned long next_rand(unsigned long long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (unsigned long)*s;
}

/* rculfhash wants the hash of the key; both RCU tables use hash_64. */
static inline unsigned long lfht_hash(unsigned long key)
{
	return cds_hash_64(key, 32);
}

#endif /* BENCH_KEYS_H */
