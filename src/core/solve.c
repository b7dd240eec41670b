/*
 * solve.c — tg_solve(): the public face of the threat-space solver (vcf.h). Works on a private
 * copy of the game's board, so the game itself is never touched.
 */
#include <stdlib.h>

#include "game.h"
#include "rules.h"
#include "vcf.h"

/// Default tables: VCF trees are small, so a one-shot VCF should not pay for clearing a big
/// table; VCT trees are large.
enum { VCF_TABLE_BYTES = 2 << 20, VCT_TABLE_BYTES = 32 << 20 };

_Static_assert(TG_SOLVE_MAX_LINE >= VCF_MAX_LINE, "a solved line must fit the public result");

static void copy_line(const Vcf *v, TgSolveResult *out) {
    out->length = v->line_len;
    for (int i = 0; i < v->line_len; i++) out->line[i] = game_point(v->line[i]);
}

TgError tg_solve(const TgGame *game, const TgSolveLimits *limits, TgSolveResult *out) {
    const int64_t t0 = tg_now_ms();
    *out = (TgSolveResult){.status = TG_SOLVE_UNKNOWN};
    if (tg_game_over(game) || rules_five_on_board(&game->board)) return TG_ERR_GAME_OVER;
    Board *b = malloc(sizeof *b);
    Vcf v;
    if (!b) return TG_ERR_MEMORY;
    const size_t table_bytes = limits->table_bytes ? limits->table_bytes
                               : limits->vct       ? VCT_TABLE_BYTES
                                                   : VCF_TABLE_BYTES;
    if (!vcf_init(&v, table_bytes)) {
        free(b);
        return TG_ERR_MEMORY;
    }
    *b = game->board;
    const VcfLimits vl = {.max_nodes = limits->nodes,
                          .max_ms = limits->time_ms,
                          .max_depth = limits->max_depth,
                          .shortest = limits->shortest,
                          .vct = limits->vct,
                          .abort = limits->stop};
    const VcfStatus s = vcf_search(&v, b, &vl);
    out->status = s == VCF_WIN ? TG_SOLVE_WIN : s == VCF_NONE ? TG_SOLVE_NONE : TG_SOLVE_UNKNOWN;
    if (s == VCF_WIN) copy_line(&v, out);
    out->nodes = v.nodes;
    out->time_ms = tg_now_ms() - t0;
    vcf_free(&v);
    free(b);
    return TG_OK;
}
