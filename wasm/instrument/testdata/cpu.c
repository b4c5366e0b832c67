// CPU-bound test guest: a sieve and an integer mixing loop, sized by argv[1]
// (default 1). Prints a checksum so runs can be compared.
// Build: clang --target=wasm32-wasi -O2 -o cpu.wasm cpu.c
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t sieve(uint32_t n) {
	uint8_t *composite = calloc(n + 1, 1);
	uint32_t count = 0;
	for (uint32_t i = 2; i <= n; i++) {
		if (composite[i])
			continue;
		count++;
		for (uint64_t j = (uint64_t)i * i; j <= n; j += i)
			composite[j] = 1;
	}
	free(composite);
	return count;
}

static uint64_t mix(uint64_t rounds) {
	uint64_t a = 0x9e3779b97f4a7c15ull, b = 0xbf58476d1ce4e5b9ull, c = 0;
	for (uint64_t i = 0; i < rounds; i++) {
		a ^= a >> 31;
		a *= b;
		b += (a << 7) | (a >> 57);
		c ^= a + i;
	}
	return c;
}

static uint32_t collatz(uint32_t limit) {
	uint32_t best = 0;
	for (uint32_t s = 1; s < limit; s++) {
		uint64_t x = s;
		uint32_t steps = 0;
		while (x != 1) {
			x = (x & 1) ? 3 * x + 1 : x / 2;
			steps++;
		}
		if (steps > best)
			best = steps;
	}
	return best;
}

// dot vectorizes to SIMD with -O3 -msimd128.
static uint32_t dot(uint32_t scale) {
	static uint32_t a[4096], b[4096];
	for (uint32_t i = 0; i < 4096; i++) {
		a[i] = i * 2654435761u;
		b[i] = i ^ 0x5bd1e995u;
	}
	uint32_t s = 0;
	for (uint32_t r = 0; r < 100 * scale + 1; r++)
		for (uint32_t i = 0; i < 4096; i++)
			s += a[i] * b[i] + r;
	return s;
}

int main(int argc, char **argv) {
	uint32_t scale = argc > 1 ? (uint32_t)atoi(argv[1]) : 1;
	uint32_t primes = sieve(1000000 * scale);
	uint64_t h = mix(10000000ull * scale);
	uint32_t steps = collatz(100000 * scale);
	uint32_t d = dot(scale);
	printf("primes=%u mix=%016llx collatz=%u dot=%u\n", primes, (unsigned long long)h, steps, d);
	return 0;
}
