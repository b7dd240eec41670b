/*
 * nn.h — the policy-value network of the zero level: a residual CNN read from a model file
 * (format in docs/zero.md), evaluated in C by a scalar reference path and a fast AVX2/FMA path.
 *
 * Network, for a board of side n (planes are n x n, CHW order as in PyTorch):
 *   input  4 planes: own stones, opponent stones, last move, all ones when Black is to move
 *   stem   3x3 conv 4 -> C, ReLU
 *   blocks B residual blocks: 3x3 conv C -> C, ReLU, 3x3 conv C -> C, + input, ReLU
 *   policy 1x1 conv C -> 2, ReLU, fully connected 2n^2 -> n^2 (logits)
 *   value  1x1 conv C -> 1, ReLU, fully connected n^2 -> 64, ReLU, then
 *          format 2: 64 -> 3 logits (win, draw, loss for the side to move), softmax;
 *          format 1: 64 -> 1, tanh (no draw probability; still read)
 * Batch normalisation is folded into the convolutions by the exporter.
 */
#ifndef TG_NN_H
#define TG_NN_H

#include "board.h"

enum {
    NN_PLANES = 4,        ///< input planes
    NN_POLICY_CH = 2,     ///< channels of the policy head's 1x1 convolution
    NN_VALUE_HIDDEN = 64, ///< width of the value head's hidden layer
    NN_MAX_CHANNELS = 256,
    NN_MAX_BLOCKS = 40,
    NN_FORMAT_VERSION = 2, ///< written; version 1 (a one-number value head) is still read
    NN_WDL = 3,            ///< outputs of a format-2 value head: win, draw, loss
};

/// One convolution: weights [out][in][k][k] as in the file, and a copy reordered for the fast
/// path as [k*k][in][out].
typedef struct NnConv {
    int in, out, k;
    const float *w, *b;
    float *w_fast;
} NnConv;

typedef struct NnFc {
    int in, out;
    const float *w, *b; ///< w[out][in]
} NnFc;

struct TgModel {
    int size; ///< board side
    TgRule rule;
    int channels, blocks;
    int value_out;       ///< outputs of the value head: NN_WDL (format 2) or 1 (format 1)
    float *data;         ///< every weight, in file order
    size_t count;        ///< floats in data
    NnConv stem, *block; ///< block[2 * i] and block[2 * i + 1]: the two convs of block i
    NnConv policy_conv, value_conv;
    NnFc policy_fc, value_fc1, value_fc2;
    bool fast; ///< use the AVX2/FMA path (the CPU has it and nobody turned it off)
};

/// Floats a model of this shape holds.
size_t nn_weight_count(int size, int channels, int blocks, int value_out);

/// Evaluates `batch` positions. in: batch x NN_PLANES x n x n; policy: batch x n^2 logits;
/// value: batch values in [-1, 1] for the side to move (win less loss); draw: batch draw
/// probabilities (0 from a format-1 model), or NULL. `scratch` is nn_scratch_floats() floats.
void nn_forward(const TgModel *m, const float *in, int batch, float *policy, float *value,
                float *draw, float *scratch);
size_t nn_scratch_floats(const TgModel *m);

/// The input planes of the side to move on board b (n x n, the model's size).
void nn_features(const Board *b, float *planes);

/// CRC-32 (as zlib's crc32) of n bytes: the checksum of model files and self-play records.
uint32_t nn_crc32(const void *data, size_t n);

#endif
