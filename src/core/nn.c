/*
 * nn.c — the policy-value network: model files (docs/zero.md), the scalar reference forward
 * pass and the AVX2/FMA one, chosen at run time by what the CPU offers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NN_HAVE_AVX2 1
#else
#define NN_HAVE_AVX2 0
#endif

#include "nn.h"

enum {
    HEADER_WORDS = 10, ///< magic, version, size, rule, planes, channels, blocks, policy ch,
                       ///< value hidden, float count
    HEADER_BYTES = HEADER_WORDS * 4,
    MAGIC = 0x4e4e4754, ///< "TGNN" read as a little-endian word
};

/* ---- Shapes ---- */

static size_t conv_floats(int in, int out, int k) { return (size_t)out * in * k * k + out; }

size_t nn_weight_count(int size, int channels, int blocks, int value_out) {
    const size_t cells = (size_t)size * size;
    return conv_floats(NN_PLANES, channels, 3) +
           2 * (size_t)blocks * conv_floats(channels, channels, 3) +
           conv_floats(channels, NN_POLICY_CH, 1) + NN_POLICY_CH * cells * cells + cells +
           conv_floats(channels, 1, 1) + cells * NN_VALUE_HIDDEN + NN_VALUE_HIDDEN +
           (size_t)NN_VALUE_HIDDEN * value_out + value_out;
}

static const float *take_conv(NnConv *c, const float *p, int in, int out, int k) {
    *c = (NnConv){.in = in, .out = out, .k = k, .w = p, .b = p + (size_t)out * in * k * k};
    return c->b + out;
}

static const float *take_fc(NnFc *f, const float *p, int in, int out) {
    *f = (NnFc){.in = in, .out = out, .w = p, .b = p + (size_t)out * in};
    return f->b + out;
}

/// Reorders a conv's weights to [tap][in][out] for the fast path.
static bool reorder_conv(NnConv *c) {
    const int taps = c->k * c->k;
    c->w_fast = malloc(sizeof(float) * (size_t)taps * c->in * c->out);
    if (!c->w_fast) return false;
    for (int o = 0; o < c->out; o++)
        for (int i = 0; i < c->in; i++)
            for (int t = 0; t < taps; t++)
                c->w_fast[((size_t)t * c->in + i) * c->out + o] =
                    c->w[((size_t)o * c->in + i) * taps + t];
    return true;
}

static bool cpu_has_avx2(void) {
#if NN_HAVE_AVX2
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

/// Points the layers into m->data (count floats already there) and builds the fast copies.
static bool model_wire(TgModel *m) {
    const int c = m->channels, cells = m->size * m->size;
    m->block = calloc((size_t)(2 * m->blocks + 1), sizeof *m->block);
    if (!m->block) return false;
    const float *p = take_conv(&m->stem, m->data, NN_PLANES, c, 3);
    for (int i = 0; i < 2 * m->blocks; i++) p = take_conv(&m->block[i], p, c, c, 3);
    p = take_conv(&m->policy_conv, p, c, NN_POLICY_CH, 1);
    p = take_fc(&m->policy_fc, p, NN_POLICY_CH * cells, cells);
    p = take_conv(&m->value_conv, p, c, 1, 1);
    p = take_fc(&m->value_fc1, p, cells, NN_VALUE_HIDDEN);
    p = take_fc(&m->value_fc2, p, NN_VALUE_HIDDEN, m->value_out);
    if ((size_t)(p - m->data) != m->count) return false;
    m->fast = cpu_has_avx2() && c % 8 == 0;
    if (!reorder_conv(&m->stem)) return false;
    for (int i = 0; i < 2 * m->blocks; i++)
        if (!reorder_conv(&m->block[i])) return false;
    return true;
}

void tg_model_free(TgModel *m) {
    if (!m) return;
    if (m->block) {
        free(m->stem.w_fast);
        for (int i = 0; i < 2 * m->blocks; i++) free(m->block[i].w_fast);
    }
    free(m->block);
    free(m->data);
    free(m);
}

static TgModel *model_alloc(TgRule rule, int size, int channels, int blocks, int value_out) {
    TgModel *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    *m = (TgModel){.size = size,
                   .rule = rule,
                   .channels = channels,
                   .blocks = blocks,
                   .value_out = value_out,
                   .count = nn_weight_count(size, channels, blocks, value_out)};
    m->data = malloc(sizeof(float) * m->count);
    if (!m->data) {
        free(m);
        return NULL;
    }
    return m;
}

static bool shape_ok(TgRule rule, int size, int channels, int blocks) {
    return (unsigned)rule < TG_RULE_COUNT && size >= TG_MIN_SIZE && size <= TG_MAX_SIZE &&
           channels >= 1 && channels <= NN_MAX_CHANNELS && blocks >= 0 && blocks <= NN_MAX_BLOCKS;
}

TgModel *tg_model_random(TgRule rule, int size, int channels, int blocks, uint64_t seed) {
    if (!shape_ok(rule, size, channels, blocks)) return NULL;
    TgModel *m = model_alloc(rule, size, channels, blocks, NN_WDL);
    if (!m) return NULL;
    uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 1;
    for (size_t i = 0; i < m->count; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        m->data[i] = ((float)(s >> 40) / (float)(1 << 24) - 0.5f) * 0.2f; // uniform in +-0.1
    }
    if (!model_wire(m)) {
        tg_model_free(m);
        return NULL;
    }
    return m;
}

/* ---- Files ---- */

uint32_t nn_crc32(const void *data, size_t n) {
    const unsigned char *p = data;
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
    }
    return ~crc;
}

static uint32_t get32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(unsigned char *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

TgModel *tg_model_read(const void *data, size_t len, char *err, size_t err_size) {
    const unsigned char *p = data;
    if (len < HEADER_BYTES + 4 || get32(p) != MAGIC) {
        snprintf(err, err_size, "not a tengen model file (no TGNN header)");
        return NULL;
    }
    uint32_t h[HEADER_WORDS];
    for (int i = 0; i < HEADER_WORDS; i++) h[i] = get32(p + 4 * i);
    if (h[1] != 1 && h[1] != NN_FORMAT_VERSION) {
        snprintf(err, err_size, "model format version %u; this tengen reads versions 1 and %d",
                 h[1], NN_FORMAT_VERSION);
        return NULL;
    }
    const TgRule rule = (TgRule)h[3];
    const int size = (int)h[2], channels = (int)h[5], blocks = (int)h[6];
    const int value_out = h[1] == 1 ? 1 : NN_WDL;
    if (h[4] != NN_PLANES || h[7] != NN_POLICY_CH || h[8] != NN_VALUE_HIDDEN ||
        !shape_ok(rule, size, channels, blocks) ||
        h[9] != nn_weight_count(size, channels, blocks, value_out)) {
        snprintf(err, err_size,
                 "model shape not supported (size %u, %u planes, %u channels, %u blocks)", h[2],
                 h[4], h[5], h[6]);
        return NULL;
    }
    const size_t body = HEADER_BYTES + 4 * (size_t)h[9];
    if (len != body + 4) {
        snprintf(err, err_size,
                 "model file is %zu bytes, its header says %zu: truncated or corrupt", len,
                 body + 4);
        return NULL;
    }
    if (nn_crc32(p, body) != get32(p + body)) {
        snprintf(err, err_size, "model file checksum mismatch: the file is corrupt");
        return NULL;
    }
    TgModel *m = model_alloc(rule, size, channels, blocks, value_out);
    if (!m) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < m->count; i++) {
        const uint32_t bits = get32(p + HEADER_BYTES + 4 * i);
        memcpy(&m->data[i], &bits, 4);
        if (!isfinite(m->data[i])) {
            snprintf(err, err_size, "model weight %zu is not a finite number", i);
            tg_model_free(m);
            return NULL;
        }
    }
    if (!model_wire(m)) {
        snprintf(err, err_size, "out of memory");
        tg_model_free(m);
        return NULL;
    }
    return m;
}

void *tg_model_write(const TgModel *m, size_t *len) {
    const size_t body = HEADER_BYTES + 4 * m->count;
    unsigned char *p = malloc(body + 4);
    if (!p) return NULL;
    const uint32_t version = (uint32_t)tg_model_format(m); // as it was read
    const uint32_t h[HEADER_WORDS] = {MAGIC,
                                      version,
                                      (uint32_t)m->size,
                                      (uint32_t)m->rule,
                                      NN_PLANES,
                                      (uint32_t)m->channels,
                                      (uint32_t)m->blocks,
                                      NN_POLICY_CH,
                                      NN_VALUE_HIDDEN,
                                      (uint32_t)m->count};
    for (int i = 0; i < HEADER_WORDS; i++) put32(p + 4 * i, h[i]);
    for (size_t i = 0; i < m->count; i++) {
        uint32_t bits;
        memcpy(&bits, &m->data[i], 4);
        put32(p + HEADER_BYTES + 4 * i, bits);
    }
    put32(p + body, nn_crc32(p, body));
    *len = body + 4;
    return p;
}

int tg_model_size(const TgModel *m) { return m->size; }
TgRule tg_model_rule(const TgModel *m) { return m->rule; }
int tg_model_channels(const TgModel *m) { return m->channels; }
int tg_model_blocks(const TgModel *m) { return m->blocks; }
int tg_model_format(const TgModel *m) { return m->value_out == 1 ? 1 : NN_FORMAT_VERSION; }
bool tg_model_fast(const TgModel *m) { return m->fast; }

bool tg_model_set_fast(TgModel *m, bool fast) {
    m->fast = fast && cpu_has_avx2() && m->channels % 8 == 0;
    return m->fast;
}

/* ---- Features ---- */

void nn_features(const Board *b, float *planes) {
    const int n = b->width, cells = n * n;
    const Color me = board_to_move(b);
    const Pos last = board_last_move(b);
    memset(planes, 0, sizeof(float) * NN_PLANES * (size_t)cells);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            const Color c = (Color)b->cell[pos_make(x, y)];
            if (c == me)
                planes[y * n + x] = 1;
            else if (c == (me ^ 1))
                planes[cells + y * n + x] = 1;
        }
    if (last != POS_NONE && last != POS_PASS) planes[2 * cells + pos_y(last) * n + pos_x(last)] = 1;
    if (me == BLACK)
        for (int i = 0; i < cells; i++) planes[3 * cells + i] = 1;
}

/* ---- Heads (shared by both paths; they are small) ---- */

static void fc_forward(const NnFc *f, const float *in, float *out, bool relu) {
    for (int o = 0; o < f->out; o++) {
        const float *w = f->w + (size_t)o * f->in;
        float s = f->b[o];
        for (int i = 0; i < f->in; i++) s += w[i] * in[i];
        out[o] = relu && s < 0 ? 0 : s;
    }
}

/// 1x1 conv with ReLU on CHW planes.
static void conv1x1_chw(const NnConv *c, const float *in, int cells, float *out) {
    for (int o = 0; o < c->out; o++) {
        float *dst = out + (size_t)o * cells;
        for (int q = 0; q < cells; q++) dst[q] = c->b[o];
        for (int i = 0; i < c->in; i++) {
            const float w = c->w[o * c->in + i];
            const float *src = in + (size_t)i * cells;
            for (int q = 0; q < cells; q++) dst[q] += w * src[q];
        }
        for (int q = 0; q < cells; q++) dst[q] = dst[q] < 0 ? 0 : dst[q];
    }
}

/// The value for the side to move (win less loss) and the draw probability, from the value
/// head's outputs: softmax of (win, draw, loss) logits, or one number through tanh.
static void value_of(const TgModel *m, const float *out, float *value, float *draw) {
    if (m->value_out == 1) {
        *value = tanhf(out[0]);
        *draw = 0;
        return;
    }
    const float top = fmaxf(out[0], fmaxf(out[1], out[2]));
    const float w = expf(out[0] - top), d = expf(out[1] - top), l = expf(out[2] - top);
    *value = (w - l) / (w + d + l);
    *draw = d / (w + d + l);
}

/// Both heads from the trunk's output (CHW). tmp holds 3 * cells + NN_VALUE_HIDDEN floats.
static void heads(const TgModel *m, const float *trunk, float *policy, float *value, float *draw,
                  float *tmp) {
    const int cells = m->size * m->size;
    conv1x1_chw(&m->policy_conv, trunk, cells, tmp);
    fc_forward(&m->policy_fc, tmp, policy, false);
    conv1x1_chw(&m->value_conv, trunk, cells, tmp);
    float *hidden = tmp + cells;
    fc_forward(&m->value_fc1, tmp, hidden, true);
    float out[NN_WDL];
    fc_forward(&m->value_fc2, hidden, out, false);
    value_of(m, out, value, draw);
}

/* ---- Scalar reference path: CHW, plain loops ---- */

static void conv3x3_scalar(const NnConv *c, const float *in, int n, const float *skip, float *out) {
    const int cells = n * n;
    for (int o = 0; o < c->out; o++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                float s = c->b[o];
                for (int i = 0; i < c->in; i++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++) {
                            const int yy = y + dy, xx = x + dx;
                            if (yy < 0 || yy >= n || xx < 0 || xx >= n) continue;
                            s += c->w[((o * c->in + i) * 3 + dy + 1) * 3 + dx + 1] *
                                 in[(size_t)i * cells + yy * n + xx];
                        }
                const size_t q = (size_t)o * cells + y * n + x;
                if (skip) s += skip[q];
                out[q] = s < 0 ? 0 : s;
            }
}

static void forward_scalar(const TgModel *m, const float *in, float *policy, float *value,
                           float *draw, float *scratch) {
    const size_t plane = (size_t)m->channels * m->size * m->size;
    float *a = scratch, *b = a + plane, *t = b + plane, *tmp = t + plane;
    conv3x3_scalar(&m->stem, in, m->size, NULL, a);
    for (int i = 0; i < m->blocks; i++) {
        conv3x3_scalar(&m->block[2 * i], a, m->size, NULL, t);
        conv3x3_scalar(&m->block[2 * i + 1], t, m->size, a, b);
        float *swap = a;
        a = b, b = swap;
    }
    heads(m, a, policy, value, draw, tmp);
}

/* ---- Fast path: zero-padded HWC activations, 8 output channels per AVX register ---- */

#if NN_HAVE_AVX2
/// out (padded HWC) = ReLU(conv(in) + bias [+ skip]); in and skip padded HWC, a border of zeros.
__attribute__((target("avx2,fma"))) static void conv3x3_avx2(const NnConv *c, const float *in,
                                                             int n, const float *skip, float *out) {
    const int stride = n + 2, ci = c->in, co = c->out;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            const size_t q = ((size_t)(y + 1) * stride + x + 1) * co;
            int o = 0;
            for (; o + 32 <= co; o += 32) { // four independent sums hide the FMA latency
                __m256 a0 = _mm256_loadu_ps(c->b + o), a1 = _mm256_loadu_ps(c->b + o + 8),
                       a2 = _mm256_loadu_ps(c->b + o + 16), a3 = _mm256_loadu_ps(c->b + o + 24);
                for (int t = 0; t < 9; t++) {
                    const float *src = in + ((size_t)(y + t / 3) * stride + x + t % 3) * ci;
                    const float *w = c->w_fast + (size_t)t * ci * co + o;
                    for (int i = 0; i < ci; i++, w += co) {
                        const __m256 v = _mm256_broadcast_ss(src + i);
                        a0 = _mm256_fmadd_ps(v, _mm256_loadu_ps(w), a0);
                        a1 = _mm256_fmadd_ps(v, _mm256_loadu_ps(w + 8), a1);
                        a2 = _mm256_fmadd_ps(v, _mm256_loadu_ps(w + 16), a2);
                        a3 = _mm256_fmadd_ps(v, _mm256_loadu_ps(w + 24), a3);
                    }
                }
                const __m256 acc[4] = {a0, a1, a2, a3};
                for (int k = 0; k < 4; k++) {
                    __m256 r = acc[k];
                    if (skip) r = _mm256_add_ps(r, _mm256_loadu_ps(skip + q + o + 8 * k));
                    _mm256_storeu_ps(out + q + o + 8 * k, _mm256_max_ps(r, _mm256_setzero_ps()));
                }
            }
            for (; o < co; o += 8) {
                __m256 acc = _mm256_loadu_ps(c->b + o);
                for (int t = 0; t < 9; t++) {
                    const float *src = in + ((size_t)(y + t / 3) * stride + x + t % 3) * ci;
                    const float *w = c->w_fast + (size_t)t * ci * co + o;
                    for (int i = 0; i < ci; i++)
                        acc = _mm256_fmadd_ps(_mm256_broadcast_ss(src + i),
                                              _mm256_loadu_ps(w + (size_t)i * co), acc);
                }
                if (skip) acc = _mm256_add_ps(acc, _mm256_loadu_ps(skip + q + o));
                _mm256_storeu_ps(out + q + o, _mm256_max_ps(acc, _mm256_setzero_ps()));
            }
        }
}
#endif

static void chw_to_padded_hwc(const float *in, int ch, int n, float *out) {
    const int stride = n + 2;
    memset(out, 0, sizeof(float) * (size_t)stride * stride * ch);
    for (int c = 0; c < ch; c++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++)
                out[((size_t)(y + 1) * stride + x + 1) * ch + c] = in[(c * n + y) * n + x];
}

static void padded_hwc_to_chw(const float *in, int ch, int n, float *out) {
    const int stride = n + 2;
    for (int c = 0; c < ch; c++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++)
                out[(c * n + y) * n + x] = in[((size_t)(y + 1) * stride + x + 1) * ch + c];
}

static void forward_fast(const TgModel *m, const float *in, float *policy, float *value,
                         float *draw, float *scratch) {
#if NN_HAVE_AVX2
    const int n = m->size;
    const size_t padded = (size_t)(n + 2) * (n + 2) * m->channels;
    float *x = scratch, *a = x + (size_t)(n + 2) * (n + 2) * NN_PLANES, *b = a + padded,
          *t = b + padded, *tmp = t + padded;
    chw_to_padded_hwc(in, NN_PLANES, n, x);
    memset(a, 0, sizeof(float) * 3 * padded); // borders stay zero from here on
    conv3x3_avx2(&m->stem, x, n, NULL, a);
    for (int i = 0; i < m->blocks; i++) {
        conv3x3_avx2(&m->block[2 * i], a, n, NULL, t);
        conv3x3_avx2(&m->block[2 * i + 1], t, n, a, b);
        float *swap = a;
        a = b, b = swap;
    }
    padded_hwc_to_chw(a, m->channels, n, t);
    heads(m, t, policy, value, draw, tmp);
#else
    forward_scalar(m, in, policy, value, draw, scratch);
#endif
}

size_t nn_scratch_floats(const TgModel *m) {
    const size_t padded = (size_t)(m->size + 2) * (m->size + 2);
    return padded * NN_PLANES + 3 * padded * m->channels + 3 * (size_t)m->size * m->size +
           NN_VALUE_HIDDEN + 16;
}

void nn_forward(const TgModel *m, const float *in, int batch, float *policy, float *value,
                float *draw, float *scratch) {
    const int cells = m->size * m->size;
    for (int k = 0; k < batch; k++) {
        const float *x = in + (size_t)k * NN_PLANES * cells;
        float d;
        if (m->fast)
            forward_fast(m, x, policy + (size_t)k * cells, value + k, &d, scratch);
        else
            forward_scalar(m, x, policy + (size_t)k * cells, value + k, &d, scratch);
        if (draw) draw[k] = d;
    }
}
