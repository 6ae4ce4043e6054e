/* splitmix64: the small generator of the fuzz mode's plans
 * (aclfuzz.c) and of the fuzz guest's calls (tests/fuzz/guest.c).
 * Each call advances STATE and returns the next 64 bits: a state
 * seeded from a seed and a number gives the same sequence every time. */
#ifndef SPLITMIX_H
#define SPLITMIX_H

#include <stdint.h>

static inline uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif
