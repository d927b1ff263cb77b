/* SHA-256 on sixteen messages at once in AVX-512 registers (sha256_x16.c), for sha256_ni.c's chain jobs. */
#ifndef KESTREL_SHA256_X16_H
#define KESTREL_SHA256_X16_H

#include <stddef.h>
#include <stdint.h>

/* A chain job's words: its input's offset, its output's, its key's, the top depth and the parting depth. */
#define CHAIN_JOB_WORDS 5

/* Bit `depth` of a chain's key, the first byte's most significant bit first: the side its child is on. */
static inline int key_bit(const uint8_t *key, int32_t depth) { return (key[depth >> 3] >> (7 - (depth & 7))) & 1; }

/* A chain left unfinished by run_chains16: its hash so far, the next depth to hash, and where it ends. */
typedef struct {
  uint8_t hash[32];
  uint8_t *output;
  const uint8_t *key;
  int32_t top;
  int32_t depth;
} ChainRest;

/* SHA-256's round constants (defined in sha256_ni.c). */
extern const uint32_t SHA256_K[64];

/* The most chains run_chains16 hands back. */
#define CHAINS16_REST_MAX 4

/* Whether this CPU and its operating system run AVX-512F code (the ZMM registers saved on a switch). */
int sha256_x16_supported(void);

/*
 * The chain jobs of sha256_ni.c's `chains`, sixteen at a time, each lane taking the next job when its own
 * ends. Once no job is left to take and few lanes are busy, their chains are handed back in `rest` (at most
 * CHAINS16_REST_MAX) for the four-lane SHA-NI code to finish, and their count returned.
 */
size_t run_chains16(uint8_t *memory, const int32_t *jobs, size_t count, const uint8_t *prefix, size_t prefix_length,
                    const uint8_t *constant, ChainRest *rest);

#endif
