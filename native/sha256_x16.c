/*
 * Chains of one-child branches (sha256_ni.c's `chains`) hashed sixteen at a time with AVX-512: one 32-bit
 * lane of each ZMM register per message, every round's rotations and choice functions one instruction for
 * all sixteen. Where the SHA instructions are slow, as on the AMD EPYC machines Kestrel runs on (about 21 ns a
 * compression with four messages interleaved), this takes about 12 ns. A chain's hash stays in the lanes as
 * words from one level to the next: each level's message words are the child's words and the constant's,
 * picked per lane by the key's bit and shifted past the prefix, so nothing is copied or byte-swapped
 * between levels.
 */
#include "sha256_x16.h"

#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

#define LANES 16
/* Below this many busy lanes, with no job left to take, the chains go back to the four-lane code. */
#define TAIL_LANES (CHAINS16_REST_MAX + 1)

#define T512 __attribute__((target("avx512f")))

static const uint32_t IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

int sha256_x16_supported(void) {
  unsigned int a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 27) & 1)) return 0; /* OSXSAVE */
  if (__get_cpuid_max(0, 0) < 7) return 0;
  __cpuid_count(7, 0, a, b, c, d);
  if (!((b >> 16) & 1)) return 0; /* AVX512F */
  uint32_t xcr0_low, xcr0_high;
  __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
  /* SSE, AVX, opmask, the upper halves of ZMM0-15 and ZMM16-31, all saved by the operating system */
  return (xcr0_low & 0xe6) == 0xe6;
}

#define ROR(x, n) _mm512_ror_epi32(x, n)
#define XOR3(a, b, c) _mm512_ternarylogic_epi32(a, b, c, 0x96)
#define BIG_SIGMA0(x) XOR3(ROR(x, 2), ROR(x, 13), ROR(x, 22))
#define BIG_SIGMA1(x) XOR3(ROR(x, 6), ROR(x, 11), ROR(x, 25))
#define SMALL_SIGMA0(x) XOR3(ROR(x, 7), ROR(x, 18), _mm512_srli_epi32(x, 3))
#define SMALL_SIGMA1(x) XOR3(ROR(x, 17), ROR(x, 19), _mm512_srli_epi32(x, 10))
#define CHOOSE(e, f, g) _mm512_ternarylogic_epi32(e, f, g, 0xca)
#define MAJORITY(a, b, c) _mm512_ternarylogic_epi32(a, b, c, 0xe8)

/* One 64-byte block of each lane's message (its sixteen words, one register each) into the lanes' states. */
T512 static inline void compress16(__m512i state[8], const __m512i block[16]) {
  __m512i w[16];
  for (int i = 0; i < 16; i++) w[i] = block[i];
  __m512i a = state[0], b = state[1], c = state[2], d = state[3];
  __m512i e = state[4], f = state[5], g = state[6], h = state[7];
  for (int i = 0; i < 64; i++) {
    if (i >= 16)
      w[i & 15] = _mm512_add_epi32(_mm512_add_epi32(SMALL_SIGMA1(w[(i - 2) & 15]), w[(i - 7) & 15]),
                                   _mm512_add_epi32(SMALL_SIGMA0(w[(i - 15) & 15]), w[i & 15]));
    const __m512i kw = _mm512_add_epi32(w[i & 15], _mm512_set1_epi32((int)SHA256_K[i]));
    const __m512i t1 = _mm512_add_epi32(_mm512_add_epi32(h, BIG_SIGMA1(e)), _mm512_add_epi32(CHOOSE(e, f, g), kw));
    const __m512i t2 = _mm512_add_epi32(BIG_SIGMA0(a), MAJORITY(a, b, c));
    h = g;
    g = f;
    f = e;
    e = _mm512_add_epi32(d, t1);
    d = c;
    c = b;
    b = a;
    a = _mm512_add_epi32(t1, t2);
  }
  state[0] = _mm512_add_epi32(state[0], a);
  state[1] = _mm512_add_epi32(state[1], b);
  state[2] = _mm512_add_epi32(state[2], c);
  state[3] = _mm512_add_epi32(state[3], d);
  state[4] = _mm512_add_epi32(state[4], e);
  state[5] = _mm512_add_epi32(state[5], f);
  state[6] = _mm512_add_epi32(state[6], g);
  state[7] = _mm512_add_epi32(state[7], h);
}

static inline uint32_t load_be32(const uint8_t *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void store_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

typedef struct {
  const uint8_t *key;
  uint8_t *output;
  int32_t top;
  int32_t depth;
} Lane;

/*
 * The 32 words of the two-block message prefix || X || Y || padding, where X and Y are the sixteen words of
 * `content` (eight each) starting at byte `p` of the message: `base` holds the prefix and the padding (the
 * content's bytes zero), and the content is shifted into place past the prefix's last partial word.
 */
T512 static inline void message_words(__m512i m[32], const __m512i base[32], const __m512i content[16], size_t p) {
  for (int k = 0; k < 32; k++) m[k] = base[k];
  const size_t q = p >> 2, r = p & 3;
  if (r == 0) {
    for (int j = 0; j < 16; j++) m[q + j] = content[j];
    return;
  }
  const __m128i right = _mm_cvtsi32_si128((int)(8 * r)), left = _mm_cvtsi32_si128((int)(32 - 8 * r));
  m[q] = _mm512_or_si512(m[q], _mm512_srl_epi32(content[0], right));
  for (int j = 1; j < 16; j++)
    m[q + j] = _mm512_or_si512(_mm512_sll_epi32(content[j - 1], left), _mm512_srl_epi32(content[j], right));
  m[q + 16] = _mm512_or_si512(m[q + 16], _mm512_sll_epi32(content[15], left));
}

T512 size_t run_chains16(uint8_t *memory, const int32_t *jobs, size_t count, const uint8_t *prefix,
                         size_t prefix_length, const uint8_t *constant, ChainRest *rest) {
  /* the message's constant part: prefix, zeros where the content goes, 0x80 and the bit length */
  uint8_t bytes[128] = {0};
  const size_t length = prefix_length + 64;
  memcpy(bytes, prefix, prefix_length);
  bytes[length] = 0x80;
  for (int i = 0; i < 8; i++) bytes[127 - i] = (uint8_t)(((uint64_t)length * 8) >> (8 * i));
  __m512i base[32], constant_words[8];
  for (int k = 0; k < 32; k++) base[k] = _mm512_set1_epi32((int)load_be32(bytes + 4 * k));
  for (int i = 0; i < 8; i++) constant_words[i] = _mm512_set1_epi32((int)load_be32(constant + 4 * i));

  /* idle lanes hash whatever their words hold, unused: zeros until a job first fills them */
  uint32_t hash[8][LANES] __attribute__((aligned(64))) = {{0}};
  Lane lane[LANES];
  int busy[LANES] = {0};
  size_t next = 0;
  for (;;) {
    int busy_count = 0;
    for (int l = 0; l < LANES; l++) {
      while (!busy[l] && next < count) {
        const int32_t *job = jobs + CHAIN_JOB_WORDS * next++;
        if (job[3] == job[4]) { /* no level: the top is the input */
          memmove(memory + job[1], memory + job[0], 32);
          continue;
        }
        lane[l] = (Lane){memory + job[2], memory + job[1], job[3], job[4] - 1};
        for (int i = 0; i < 8; i++) hash[i][l] = load_be32(memory + job[0] + 4 * i);
        busy[l] = 1;
      }
      busy_count += busy[l];
    }
    if (busy_count == 0) return 0;
    if (next == count && busy_count < TAIL_LANES) {
      size_t handed = 0;
      for (int l = 0; l < LANES; l++) {
        if (!busy[l]) continue;
        ChainRest *chain = &rest[handed++];
        for (int i = 0; i < 8; i++) store_be32(chain->hash + 4 * i, hash[i][l]);
        chain->output = lane[l].output;
        chain->key = lane[l].key;
        chain->top = lane[l].top;
        chain->depth = lane[l].depth;
      }
      return handed;
    }
    __mmask16 ones = 0;
    for (int l = 0; l < LANES; l++)
      if (busy[l] && key_bit(lane[l].key, lane[l].depth)) ones |= (__mmask16)(1u << l);
    /* a lane whose key's bit is 0 hashes child || constant, one whose bit is 1 constant || child */
    __m512i content[16];
    for (int i = 0; i < 8; i++) {
      const __m512i child = _mm512_load_si512((const void *)hash[i]);
      content[i] = _mm512_mask_blend_epi32(ones, child, constant_words[i]);
      content[8 + i] = _mm512_mask_blend_epi32(ones, constant_words[i], child);
    }
    __m512i m[32], state[8];
    message_words(m, base, content, prefix_length);
    for (int i = 0; i < 8; i++) state[i] = _mm512_set1_epi32((int)IV[i]);
    compress16(state, m);
    compress16(state, m + 16);
    for (int i = 0; i < 8; i++) _mm512_store_si512((void *)hash[i], state[i]);
    for (int l = 0; l < LANES; l++) {
      if (!busy[l]) continue;
      if (lane[l].depth-- == lane[l].top) {
        for (int i = 0; i < 8; i++) store_be32(lane[l].output + 4 * i, hash[i][l]);
        busy[l] = 0;
      }
    }
  }
}

#else

int sha256_x16_supported(void) { return 0; }

size_t run_chains16(uint8_t *memory, const int32_t *jobs, size_t count, const uint8_t *prefix, size_t prefix_length,
                    const uint8_t *constant, ChainRest *rest) {
  (void)memory, (void)jobs, (void)count, (void)prefix, (void)prefix_length, (void)constant, (void)rest;
  return 0;
}

#endif
