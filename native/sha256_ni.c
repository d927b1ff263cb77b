/*
 * SHA-256 with the x86 SHA extensions (SHA-NI) over the job lists of src/lib/crypto/sha256_x4.ts:
 * the same memory layout the WebAssembly hasher reads (a WebAssembly.Memory's ArrayBuffer), the same
 * jobs, one native call per run of jobs. Several messages are hashed at once so that the dependent
 * sha256rnds2 instructions of each fill the others' latency: four for pairs, inputs and chains (measured
 * fastest here: 26 ns a compression against 33 with two), two for `many`, whose messages differ in length.
 *
 * Exports: supported (whether this CPU has SHA-NI; the functions must not be called otherwise),
 * wideChains (whether chains run sixteen at a time in AVX-512 registers, sha256_x16.c),
 * pairs(memory, jobsOffset, count, prefix, constant, kind), inputs(memory, jobsOffset, count, prefix, length),
 * many(memory, jobsOffset, count), chains(memory, jobsOffset, count, prefix, constant, wide?). Offsets and
 * counts are checked against the memory before any hashing.
 */
#include <node_api.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sha256_x16.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define KESTREL_X86 1
#endif

#define JOB_WORDS 3
#define MAX_PREFIX 55

#ifdef KESTREL_X86

/* SHA-256's round constants (sha256_x16.c reads them too). */
const uint32_t SHA256_K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define TARGET __attribute__((target("sha,sse4.1,ssse3")))

/* The state as the SHA instructions keep it: (A,B,E,F) and (C,D,G,H). */
typedef struct {
  __m128i abef;
  __m128i cdgh;
} State;

TARGET static inline State initial_state(void) {
  /* H0..H7 = 6a09e667 bb67ae85 3c6ef372 a54ff53a 510e527f 9b05688c 1f83d9ab 5be0cd19, lanes low to high */
  State s;
  s.abef = _mm_set_epi32((int)0x6a09e667, (int)0xbb67ae85, (int)0x510e527f, (int)0x9b05688c);
  s.cdgh = _mm_set_epi32((int)0x3c6ef372, (int)0xa54ff53a, (int)0x1f83d9ab, (int)0x5be0cd19);
  return s;
}

/* Four rounds of each of the two messages: their schedules' next four words plus the round constants. */
#define ROUNDS4(i, m0, m1)                                                                  \
  do {                                                                                      \
    const __m128i k = _mm_loadu_si128((const __m128i *)&SHA256_K[4 * (i)]);                 \
    __m128i t0 = _mm_add_epi32(m0, k);                                                      \
    __m128i t1 = _mm_add_epi32(m1, k);                                                      \
    b0 = _mm_sha256rnds2_epu32(b0, a0, t0);                                                 \
    b1 = _mm_sha256rnds2_epu32(b1, a1, t1);                                                 \
    t0 = _mm_shuffle_epi32(t0, 0x0e);                                                       \
    t1 = _mm_shuffle_epi32(t1, 0x0e);                                                       \
    a0 = _mm_sha256rnds2_epu32(a0, b0, t0);                                                 \
    a1 = _mm_sha256rnds2_epu32(a1, b1, t1);                                                 \
  } while (0)

/* The schedule's next four words from the previous sixteen (w[i-4] .. w[i-1] are groups of four). */
#define SCHEDULE(w4, w3, w2, w1) \
  _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(w4, w3), _mm_alignr_epi8(w1, w2, 4)), w1)

/* One 64-byte block of each of two messages (the same block twice is fine: one message hashed alone). */
TARGET static inline void compress2(State *s0, State *s1, const uint8_t *block0, const uint8_t *block1) {
  const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i a0 = s0->abef, b0 = s0->cdgh, a1 = s1->abef, b1 = s1->cdgh;
  __m128i x[4], y[4];
  for (int j = 0; j < 4; j++) {
    x[j] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(block0 + 16 * j)), swap);
    y[j] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(block1 + 16 * j)), swap);
  }
  for (int i = 0; i < 16; i++) {
    if (i >= 4) {
      x[i & 3] = SCHEDULE(x[i & 3], x[(i + 1) & 3], x[(i + 2) & 3], x[(i + 3) & 3]);
      y[i & 3] = SCHEDULE(y[i & 3], y[(i + 1) & 3], y[(i + 2) & 3], y[(i + 3) & 3]);
    }
    ROUNDS4(i, x[i & 3], y[i & 3]);
  }
  s0->abef = _mm_add_epi32(s0->abef, a0);
  s0->cdgh = _mm_add_epi32(s0->cdgh, b0);
  s1->abef = _mm_add_epi32(s1->abef, a1);
  s1->cdgh = _mm_add_epi32(s1->cdgh, b1);
}

#define LANES4 4

/* One 64-byte block of each of four messages: four dependency chains of sha256rnds2 fill its latency better than two. */
TARGET static inline void compress4(State *s, const uint8_t *const *block) {
  enum { L = 4 };
  const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i a[L], b[L], x[L][4];
  for (int l = 0; l < L; l++) {
    a[l] = s[l].abef;
    b[l] = s[l].cdgh;
    for (int j = 0; j < 4; j++) x[l][j] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(block[l] + 16 * j)), swap);
  }
  for (int i = 0; i < 16; i++) {
    const __m128i k = _mm_loadu_si128((const __m128i *)&SHA256_K[4 * i]);
    __m128i t[L];
    for (int l = 0; l < L; l++) {
      if (i >= 4) x[l][i & 3] = SCHEDULE(x[l][i & 3], x[l][(i + 1) & 3], x[l][(i + 2) & 3], x[l][(i + 3) & 3]);
      t[l] = _mm_add_epi32(x[l][i & 3], k);
    }
    for (int l = 0; l < L; l++) b[l] = _mm_sha256rnds2_epu32(b[l], a[l], t[l]);
    for (int l = 0; l < L; l++) t[l] = _mm_shuffle_epi32(t[l], 0x0e);
    for (int l = 0; l < L; l++) a[l] = _mm_sha256rnds2_epu32(a[l], b[l], t[l]);
  }
  for (int l = 0; l < L; l++) {
    s[l].abef = _mm_add_epi32(s[l].abef, a[l]);
    s[l].cdgh = _mm_add_epi32(s[l].cdgh, b[l]);
  }
}

/* The digest's 32 bytes: big-endian words A..H, by shuffles. */
TARGET static inline void store_digest(uint8_t *out, State s) {
  /* abef holds lanes (F, E, B, A) low to high, cdgh (H, G, D, C): A B C D E F G H is abef[3] abef[2] cdgh[3] cdgh[2] ... */
  const __m128i abcd = _mm_unpackhi_epi64(s.cdgh, s.abef);  /* lanes D C B A */
  const __m128i efgh = _mm_unpacklo_epi64(s.cdgh, s.abef);  /* lanes H G F E */
  const __m128i reverse = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  _mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(abcd, reverse));
  _mm_storeu_si128((__m128i *)(out + 16), _mm_shuffle_epi8(efgh, reverse));
}

static int has_sha_ni(void) {
  unsigned int a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  const int sse41 = (c >> 19) & 1, ssse3 = (c >> 9) & 1;
  if (__get_cpuid_max(0, 0) < 7) return 0;
  __cpuid_count(7, 0, a, b, c, d);
  return sse41 && ssse3 && ((b >> 29) & 1);
}

/* A message of one or two blocks per job: `fill` writes job j's padded message into `buf` (128 bytes). */
typedef void (*Fill)(const uint8_t *memory, const int32_t *job, const void *form, uint8_t *buf);

/* Jobs of one or two blocks each; a job's third word is its output's offset. Four at once. */
TARGET static void run_jobs(uint8_t *memory, const int32_t *jobs, size_t count, int blocks, Fill fill,
                            const void *form) {
  uint8_t m[LANES4][128];
  for (size_t j = 0; j < count; j += LANES4) {
    const size_t lanes = count - j < LANES4 ? count - j : LANES4;
    for (size_t l = 0; l < lanes; l++) fill(memory, jobs + JOB_WORDS * (j + l), form, m[l]);
    State s[LANES4];
    for (int l = 0; l < LANES4; l++) s[l] = initial_state();
    for (int b = 0; b < blocks; b++) {
      /* lanes past the last job hash the first lane's message again, unused */
      const uint8_t *block[LANES4];
      for (size_t l = 0; l < LANES4; l++) block[l] = m[l < lanes ? l : 0] + 64 * b;
      compress4(s, block);
    }
    for (size_t l = 0; l < lanes; l++) store_digest(memory + jobs[JOB_WORDS * (j + l) + 2], s[l]);
  }
}

typedef struct {
  const uint8_t *prefix;
  size_t prefix_length;
  const uint8_t *constant;
  int kind; /* 0: both inputs from memory, 1: the left is the constant, 2: the right is */
  size_t input_length;
} Form;

/* prefix || input || padding, where the message is prefix_length + input_length bytes (at most 119). */
static void pad_message(uint8_t *buf, size_t length) {
  memset(buf + length, 0, 128 - length);
  buf[length] = 0x80;
  const uint64_t bits = (uint64_t)length * 8;
  const size_t end = length + 9 <= 64 ? 64 : 128;
  for (int i = 0; i < 8; i++) buf[end - 1 - i] = (uint8_t)(bits >> (8 * i));
}

static void fill_pair(const uint8_t *memory, const int32_t *job, const void *form_, uint8_t *buf) {
  const Form *form = (const Form *)form_;
  const uint8_t *left = form->kind == 1 ? form->constant : memory + job[0];
  const uint8_t *right = form->kind == 2 ? form->constant : memory + job[1];
  memcpy(buf, form->prefix, form->prefix_length);
  memcpy(buf + form->prefix_length, left, 32);
  memcpy(buf + form->prefix_length + 32, right, 32);
  pad_message(buf, form->prefix_length + 64);
}

static void fill_input(const uint8_t *memory, const int32_t *job, const void *form_, uint8_t *buf) {
  const Form *form = (const Form *)form_;
  memcpy(buf, form->prefix, form->prefix_length);
  memcpy(buf + form->prefix_length, memory + job[0], form->input_length);
  pad_message(buf, form->prefix_length + form->input_length);
}

/* Jobs of `many`: the message is already padded in memory, `blocks` of them; two jobs with the same count at once. */
TARGET static void run_many(uint8_t *memory, const int32_t *jobs, size_t count) {
  size_t j = 0;
  for (; j + 1 < count; j += 2) {
    const int32_t *job0 = jobs + JOB_WORDS * j, *job1 = job0 + JOB_WORDS;
    State s0 = initial_state(), s1 = initial_state();
    if (job0[1] == job1[1]) {
      for (int32_t b = 0; b < job0[1]; b++) compress2(&s0, &s1, memory + job0[0] + 64 * b, memory + job1[0] + 64 * b);
    } else {
      State t0 = initial_state(), t1 = initial_state();
      for (int32_t b = 0; b < job0[1]; b++) compress2(&s0, &t0, memory + job0[0] + 64 * b, memory + job0[0] + 64 * b);
      for (int32_t b = 0; b < job1[1]; b++) compress2(&s1, &t1, memory + job1[0] + 64 * b, memory + job1[0] + 64 * b);
    }
    store_digest(memory + job0[2], s0);
    store_digest(memory + job1[2], s1);
  }
  if (j < count) {
    const int32_t *job = jobs + JOB_WORDS * j;
    State s0 = initial_state(), s1 = initial_state();
    for (int32_t b = 0; b < job[1]; b++) compress2(&s0, &s1, memory + job[0] + 64 * b, memory + job[0] + 64 * b);
    store_digest(memory + job[2], s0);
  }
}

/* Where the four-lane code takes its chains: the jobs not taken yet (in memory), then chains handed back by run_chains16. */
typedef struct {
  uint8_t *memory;
  const int32_t *jobs;
  size_t count;
  size_t next;
  const ChainRest *rest;
  size_t rest_count;
  size_t rest_next;
} ChainSource;

/* The next chain into `chain`; a job of no level is done on the spot (its top is its input). 0 when none is left. */
static int take_chain(ChainSource *source, ChainRest *chain) {
  while (source->next < source->count) {
    const int32_t *job = source->jobs + CHAIN_JOB_WORDS * source->next++;
    if (job[3] == job[4]) {
      memmove(source->memory + job[1], source->memory + job[0], 32);
      continue;
    }
    memcpy(chain->hash, source->memory + job[0], 32);
    chain->output = source->memory + job[1];
    chain->key = source->memory + job[2];
    chain->top = job[3];
    chain->depth = job[4] - 1;
    return 1;
  }
  if (source->rest_next == source->rest_count) return 0;
  *chain = source->rest[source->rest_next++];
  return 1;
}

/*
 * Chains of branches with one empty child: from the node at a job's input (the branch where the chain's keys
 * part, at the parting depth), each level up to the top depth hashes prefix || child || constant when the key's
 * bit at that depth is 0, prefix || constant || child when it is 1; the top's hash goes to the job's output.
 * Four chains are hashed at once, each lane taking the next chain when its own ends.
 */
TARGET static void run_chains(ChainSource *source, const uint8_t *prefix, size_t prefix_length,
                              const uint8_t *constant) {
  uint8_t m[LANES4][128];
  ChainRest chain[LANES4];
  int busy[LANES4] = {0};
  const size_t length = prefix_length + 64;
  const int blocks = length + 9 <= 64 ? 1 : 2;
  for (int lane = 0; lane < LANES4; lane++) {
    memcpy(m[lane], prefix, prefix_length);
    pad_message(m[lane], length);
  }
  for (;;) {
    int busy_count = 0;
    for (int lane = 0; lane < LANES4; lane++) {
      if (!busy[lane]) busy[lane] = take_chain(source, &chain[lane]);
      if (!busy[lane]) continue;
      busy_count++;
      const int bit = key_bit(chain[lane].key, chain[lane].depth);
      memcpy(m[lane] + prefix_length, bit ? constant : chain[lane].hash, 32);
      memcpy(m[lane] + prefix_length + 32, bit ? chain[lane].hash : constant, 32);
    }
    if (busy_count == 0) return;
    /* an idle lane hashes a busy lane's message again, unused */
    const uint8_t *any = NULL;
    for (int lane = 0; lane < LANES4 && any == NULL; lane++)
      if (busy[lane]) any = m[lane];
    State st[LANES4];
    const uint8_t *msg[LANES4];
    for (int lane = 0; lane < LANES4; lane++) {
      st[lane] = initial_state();
      msg[lane] = busy[lane] ? m[lane] : any;
    }
    for (int b = 0; b < blocks; b++) {
      const uint8_t *block[LANES4];
      for (int lane = 0; lane < LANES4; lane++) block[lane] = msg[lane] + 64 * b;
      compress4(st, block);
    }
    for (int lane = 0; lane < LANES4; lane++) {
      if (!busy[lane]) continue;
      store_digest(chain[lane].hash, st[lane]);
      if (chain[lane].depth-- == chain[lane].top) {
        memcpy(chain[lane].output, chain[lane].hash, 32);
        busy[lane] = 0;
      }
    }
  }
}

#endif /* KESTREL_X86 */

/* ---- Node-API glue ---- */

static napi_value throw_error(napi_env env, const char *message) {
  napi_throw_range_error(env, NULL, message);
  return NULL;
}

typedef struct {
  uint8_t *memory;
  size_t memory_length;
  int32_t *jobs;
  size_t count;
} Run;

/* args[0] the memory (ArrayBuffer), args[1] the jobs' byte offset, args[2] the job count: all jobs inside the memory. */
static int read_run(napi_env env, napi_value *args, Run *run) {
  void *data;
  size_t length;
  uint32_t offset, count;
  if (napi_get_arraybuffer_info(env, args[0], &data, &length) != napi_ok) return 0;
  if (napi_get_value_uint32(env, args[1], &offset) != napi_ok) return 0;
  if (napi_get_value_uint32(env, args[2], &count) != napi_ok) return 0;
  if ((offset & 3) != 0 || (uint64_t)offset + (uint64_t)count * JOB_WORDS * 4 > length) return 0;
  run->memory = (uint8_t *)data;
  run->memory_length = length;
  run->jobs = (int32_t *)((uint8_t *)data + offset);
  run->count = count;
  return 1;
}

static int read_bytes(napi_env env, napi_value value, const uint8_t **bytes, size_t *length) {
  void *data;
  if (napi_get_buffer_info(env, value, &data, length) != napi_ok) return 0;
  *bytes = (const uint8_t *)data;
  return 1;
}

/* Every (offset word, span) of every job lies inside the memory. */
static int jobs_inside(const Run *run, int word, size_t span) {
  for (size_t j = 0; j < run->count; j++) {
    const int32_t at = run->jobs[JOB_WORDS * j + word];
    if (at < 0 || (uint64_t)at + span > run->memory_length) return 0;
  }
  return 1;
}

static napi_value pairs(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value args[6];
  napi_get_cb_info(env, info, &argc, args, NULL, NULL);
  Run run;
  Form form = {0};
  size_t constant_length;
  uint32_t kind;
  if (argc < 6 || !read_run(env, args, &run) || !read_bytes(env, args[3], &form.prefix, &form.prefix_length) ||
      !read_bytes(env, args[4], &form.constant, &constant_length) ||
      napi_get_value_uint32(env, args[5], &kind) != napi_ok)
    return throw_error(env, "pairs(memory, jobsOffset, count, prefix, constant, kind): bad arguments");
  if (form.prefix_length > MAX_PREFIX || constant_length != 32 || kind > 2)
    return throw_error(env, "pairs: prefix longer than 55 bytes, constant not 32 bytes or unknown kind");
  if ((kind != 1 && !jobs_inside(&run, 0, 32)) || (kind != 2 && !jobs_inside(&run, 1, 32)) || !jobs_inside(&run, 2, 32))
    return throw_error(env, "pairs: a job's offset lies outside the memory");
  form.kind = (int)kind;
#ifdef KESTREL_X86
  /* prefix (at most 55 bytes) || two inputs of 32 never fit one block with their padding */
  run_jobs(run.memory, run.jobs, run.count, 2, fill_pair, &form);
#endif
  return NULL;
}

static napi_value inputs(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value args[5];
  napi_get_cb_info(env, info, &argc, args, NULL, NULL);
  Run run;
  Form form = {0};
  uint32_t length;
  if (argc < 5 || !read_run(env, args, &run) || !read_bytes(env, args[3], &form.prefix, &form.prefix_length) ||
      napi_get_value_uint32(env, args[4], &length) != napi_ok)
    return throw_error(env, "inputs(memory, jobsOffset, count, prefix, length): bad arguments");
  if (form.prefix_length + length + 9 > 128)
    return throw_error(env, "inputs: prefix and input do not fit a two-block message");
  if (!jobs_inside(&run, 0, length) || !jobs_inside(&run, 2, 32))
    return throw_error(env, "inputs: a job's offset lies outside the memory");
  form.input_length = length;
#ifdef KESTREL_X86
  run_jobs(run.memory, run.jobs, run.count, form.prefix_length + length + 9 <= 64 ? 1 : 2, fill_input, &form);
#endif
  return NULL;
}

static napi_value many(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value args[3];
  napi_get_cb_info(env, info, &argc, args, NULL, NULL);
  Run run;
  if (argc < 3 || !read_run(env, args, &run))
    return throw_error(env, "many(memory, jobsOffset, count): bad arguments");
  for (size_t j = 0; j < run.count; j++) {
    const int32_t *job = run.jobs + JOB_WORDS * j;
    if (job[0] < 0 || job[1] < 0 || job[2] < 0 || (uint64_t)job[0] + 64 * (uint64_t)job[1] > run.memory_length ||
        (uint64_t)job[2] + 32 > run.memory_length)
      return throw_error(env, "many: a job's message or output lies outside the memory");
  }
#ifdef KESTREL_X86
  run_many(run.memory, run.jobs, run.count);
#endif
  return NULL;
}

static int wide_chains = 0;

/* An optional boolean argument: undefined keeps `value` as it is. */
static int read_optional_bool(napi_env env, napi_value arg, bool *value) {
  napi_valuetype type;
  if (napi_typeof(env, arg, &type) != napi_ok) return 0;
  return type == napi_undefined || napi_get_value_bool(env, arg, value) == napi_ok;
}

/* chains(memory, jobsOffset, count, prefix, constant, wide?): wide false keeps to the four-lane SHA-NI code. */
static napi_value chains(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value args[6];
  napi_get_cb_info(env, info, &argc, args, NULL, NULL);
  void *data;
  size_t length, prefix_length, constant_length;
  uint32_t offset, count;
  const uint8_t *prefix, *constant;
  bool wide = true;
  if (argc < 5 || napi_get_arraybuffer_info(env, args[0], &data, &length) != napi_ok ||
      napi_get_value_uint32(env, args[1], &offset) != napi_ok || napi_get_value_uint32(env, args[2], &count) != napi_ok ||
      !read_bytes(env, args[3], &prefix, &prefix_length) || !read_bytes(env, args[4], &constant, &constant_length) ||
      (argc > 5 && !read_optional_bool(env, args[5], &wide)))
    return throw_error(env, "chains(memory, jobsOffset, count, prefix, constant, wide?): bad arguments");
  if (prefix_length > MAX_PREFIX || constant_length != 32)
    return throw_error(env, "chains: prefix longer than 55 bytes or constant not 32 bytes");
  if ((offset & 3) != 0 || (uint64_t)offset + (uint64_t)count * CHAIN_JOB_WORDS * 4 > length)
    return throw_error(env, "chains: the jobs lie outside the memory");
  const int32_t *jobs = (const int32_t *)((uint8_t *)data + offset);
  for (size_t j = 0; j < count; j++) {
    const int32_t *job = jobs + CHAIN_JOB_WORDS * j;
    if (job[0] < 0 || (uint64_t)job[0] + 32 > length || job[1] < 0 || (uint64_t)job[1] + 32 > length)
      return throw_error(env, "chains: a job's input or output lies outside the memory");
    if (job[3] < 0 || job[4] < job[3] || job[2] < 0 || (job[4] > job[3] && (uint64_t)job[2] + (((uint64_t)job[4] - 1) >> 3) >= length))
      return throw_error(env, "chains: a job's depths are out of order or its key lies outside the memory");
  }
#ifdef KESTREL_X86
  ChainSource source = {(uint8_t *)data, jobs, count, 0, NULL, 0, 0};
  ChainRest rest[CHAINS16_REST_MAX];
  if (wide && wide_chains) {
    source.rest = rest;
    source.rest_count = run_chains16((uint8_t *)data, jobs, count, prefix, prefix_length, constant, rest);
    source.next = count;
  }
  run_chains(&source, prefix, prefix_length, constant);
#endif
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
#ifdef KESTREL_X86
  const int supported = has_sha_ni();
#else
  const int supported = 0;
#endif
  napi_value flag;
  napi_get_boolean(env, supported, &flag);
  napi_set_named_property(env, exports, "supported", flag);
  if (!supported) return exports;
  wide_chains = sha256_x16_supported();
  napi_value wide;
  napi_get_boolean(env, wide_chains, &wide);
  napi_set_named_property(env, exports, "wideChains", wide);
  const napi_property_descriptor functions[] = {
      {"pairs", NULL, pairs, NULL, NULL, NULL, napi_default, NULL},
      {"inputs", NULL, inputs, NULL, NULL, NULL, napi_default, NULL},
      {"many", NULL, many, NULL, NULL, NULL, napi_default, NULL},
      {"chains", NULL, chains, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, 4, functions);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
