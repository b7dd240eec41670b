/*
 * model.c — the session behind both views of `tengen play`: whose move it is, the
 * computer's search (started from play_tick, collected when done), undo and redo by pairs
 * against the computer, clocks and loss on time, draw offers, hints and replay.
 *
 * Invariant: every change of the position or of the players bumps `version`; a search result
 * is used only when the version it started from is still current, so a stale answer (after an
 * undo, a load, a new game) can never be played.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "play.h"

enum {
    MAX_DEFAULT_MS = 3000,    ///< the max level's time a move when none is given
    MEDIUM_CAP_MS = 1000,     ///< the medium level's, which needs far less as a rule
    DRAW_SEARCH_MS = 300,     ///< how long the computer weighs a draw offer
    DRAW_ACCEPT_MARGIN = 400, ///< it accepts when it judges itself this much worse
};

static bool fail(PlaySession *s, TextId id) {
    return play_tell(s, EV_ERROR, id, NULL, NULL, NULL, NULL);
}

static const char *color_text(const PlaySession *s, TgColor c) {
    return play_color_text(s->cfg.lang, c);
}

static TgColor other(TgColor c) { return c == TG_BLACK ? TG_WHITE : TG_BLACK; }

/* ---- Texts ---- */

void play_info_text(const PlaySession *s, const ThinkInfo *info, char *buf, size_t size) {
    char depth[16], seldepth[16], score[24];
    snprintf(depth, sizeof depth, "%d", info->depth);
    snprintf(seldepth, sizeof seldepth, "%d", info->seldepth);
    tg_score_text(info->score, score, sizeof score);
    play_fill(buf, size, play_text(s->cfg.lang, T_DEPTH), depth, seldepth, score,
              (const char *)NULL);
}

static void five_text(const PlaySession *s, const TgResult *r, char *buf, size_t size) {
    char from[8], to[8], len[8];
    play_point_text(s, r->line.from, from, sizeof from);
    play_point_text(s, r->line.to, to, sizeof to);
    snprintf(len, sizeof len, "%d", r->line.length);
    const TextId id = r->line.length > 5 ? T_WIN_LONG : T_WIN_FIVE;
    play_fill(buf, size, play_text(s->cfg.lang, id), color_text(s, r->winner), from, to, len,
              (const char *)NULL);
}

void play_result_text(const PlaySession *s, char *buf, size_t size) {
    const TgResult r = tg_game_result(s->game);
    const PlayLang L = s->cfg.lang;
    const char *winner = color_text(s, r.winner), *loser = color_text(s, other(r.winner));
    char pt[8];
    *buf = '\0';
    switch (r.reason) {
    case TG_REASON_FIVE: five_text(s, &r, buf, size); break;
    case TG_REASON_FOUL:
        play_point_text(s, r.foul_point, pt, sizeof pt);
        play_fill(buf, size, play_text(L, T_WIN_FOUL), play_foul_text(L, r.foul), pt,
                  (const char *)NULL);
        break;
    case TG_REASON_RESIGN:
        play_fill(buf, size, play_text(L, T_WIN_RESIGN), loser, winner, (const char *)NULL);
        break;
    case TG_REASON_TIME:
        play_fill(buf, size, play_text(L, T_WIN_TIME), loser, winner, (const char *)NULL);
        break;
    case TG_REASON_FULL_BOARD: snprintf(buf, size, "%s", play_text(L, T_DRAW_FULL)); break;
    case TG_REASON_AGREEMENT: snprintf(buf, size, "%s", play_text(L, T_DRAW_AGREED)); break;
    case TG_REASON_PASSES: snprintf(buf, size, "%s", play_text(L, T_DRAW_PASSES)); break;
    default: break;
    }
}

void play_default_save_name(char *buf, size_t size) {
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(buf, size, "tengen-%Y%m%d-%H%M%S.psq", &tm);
}

/* ---- Turns ---- */

/// Who is to act: the player the opening asks, or the one holding the colour to move.
static PlaySide side_to_move(const PlaySession *s) {
    if (play_in_opening(s)) return s->cfg.side[tg_opening_step(s->opening).player];
    return play_side_of(s, tg_game_to_move(s->game));
}

static bool in_play(const PlaySession *s) { return !s->replay && !tg_game_over(s->game); }

bool play_human_to_move(const PlaySession *s) { return in_play(s) && !side_to_move(s).computer; }
bool play_computer_to_move(const PlaySession *s) { return in_play(s) && side_to_move(s).computer; }

bool play_thinking(const PlaySession *s) {
    return s->think.active && (s->think.kind == THINK_MOVE || s->think.kind == THINK_OPENING);
}

bool play_watching(const PlaySession *s) {
    return s->cfg.side[TG_BLACK].computer && s->cfg.side[TG_WHITE].computer;
}

/// Against the computer: the human's colour (Black when both or neither are human).
static TgColor human_color(const PlaySession *s) {
    return play_side_of(s, TG_BLACK).computer && !play_side_of(s, TG_WHITE).computer ? TG_WHITE
                                                                                     : TG_BLACK;
}

static bool against_computer(const PlaySession *s) {
    return s->cfg.side[TG_BLACK].computer != s->cfg.side[TG_WHITE].computer;
}

static void announce_result(PlaySession *s) {
    char how[300];
    play_result_text(s, how, sizeof how);
    play_tell(s, EV_RESULT, T_GAME_OVER, how, NULL, NULL, NULL);
}

/// Reports the move just played; `info`, for the computer's, adds its score.
static void announce_move(PlaySession *s, const ThinkInfo *info) {
    const int ply = tg_game_ply(s->game);
    const TgPoint p = tg_game_move(s->game, ply - 1);
    const TgColor mover = (ply - 1) % 2 ? TG_WHITE : TG_BLACK;
    char number[16], pt[8], line[64];
    snprintf(number, sizeof number, "%d", ply);
    play_point_text(s, p, pt, sizeof pt);
    play_fill(line, sizeof line, play_text(s->cfg.lang, T_MOVE_LINE), number,
              play_text(s->cfg.lang, mover == TG_BLACK ? T_BLACK_STONE : T_WHITE_STONE), pt,
              (const char *)NULL);
    if (info && info->depth > 1) {
        char score[24];
        tg_score_text(info->score, score, sizeof score);
        snprintf(line + strlen(line), sizeof line - strlen(line), " (%s)", score);
    }
    play_report(s, EV_MOVE, line);
    if (tg_game_over(s->game)) announce_result(s);
}

/* ---- Session ---- */

/// Puts `game` in place of the session's game (which is freed), with fresh play state.
static void adopt_game(PlaySession *s, TgGame *game) {
    think_cancel(&s->think);
    tg_game_free(s->game);
    s->game = game;
    s->paused = false;
    s->steps = 0;
    s->replay = false;
    s->draw_offer = TG_NOBODY;
    s->last.valid = false;
    tg_engine_clear(s->think.engine);
    play_changed(s);
}

/// "new game: ..." with the players: under an opening rule, who is player 1 and 2 matters
/// more than the colours they start with.
static void announce_new_game(PlaySession *s) {
    const PlayConfig *cfg = &s->cfg;
    char size[16], black[64], white[64], line[400], header[500];
    if (s->opening) {
        play_opening_header(s, header, sizeof header);
        play_fill(line, sizeof line, play_text(cfg->lang, T_NEW_GAME_OPENING), header,
                  (const char *)NULL);
        play_report(s, EV_POSITION, line);
        return;
    }
    snprintf(size, sizeof size, "%dx%d", cfg->width, cfg->height);
    play_side_text(cfg->lang, cfg->side[TG_BLACK], black, sizeof black);
    play_side_text(cfg->lang, cfg->side[TG_WHITE], white, sizeof white);
    play_tell(s, EV_POSITION, T_NEW_GAME, play_rule_text(cfg->lang, cfg->rule), size, black, white);
}

/// "freestyle 8x8, ...": the boards with a built-in network.
static void builtin_boards(PlayLang lang, char *buf, size_t size) {
    size_t used = 0;
    *buf = '\0';
    for (int r = 0; r < TG_RULE_COUNT; r++)
        for (int n = TG_MIN_SIZE; n <= TG_MAX_SIZE && used < size; n++)
            if (tg_model_builtin((TgRule)r, n))
                used += (size_t)snprintf(buf + used, size - used, "%s%s %dx%d", used ? ", " : "",
                                         play_rule_text(lang, (TgRule)r), n, n);
}

/// A zero-level player needs a network for the board: refused here, before the game starts,
/// rather than by the engine at the computer's first move.
static bool zero_fits(PlaySession *s, const PlayConfig *c) {
    const bool zero = (c->side[0].computer && c->side[0].level == TG_LEVEL_ZERO) ||
                      (c->side[1].computer && c->side[1].level == TG_LEVEL_ZERO);
    if (!zero || tg_model_for(c->model, c->rule, c->width, c->height)) return true;
    char size[16], model_size[16], boards[200];
    snprintf(size, sizeof size, "%dx%d", c->width, c->height);
    if (!c->model) {
        builtin_boards(c->lang, boards, sizeof boards);
        return play_tell(s, EV_ERROR, T_ERR_ZERO_NONE, play_rule_text(c->lang, c->rule), size,
                         boards, NULL);
    }
    const int n = tg_model_size(c->model);
    snprintf(model_size, sizeof model_size, "%dx%d", n, n);
    return play_tell(s, EV_ERROR, T_ERR_ZERO_MODEL,
                     play_rule_text(c->lang, tg_model_rule(c->model)), model_size,
                     play_rule_text(c->lang, c->rule), size);
}

bool play_new_game(PlaySession *s, const PlayConfig *cfg) {
    TgGame *g;
    TgOpening *op;
    char note[300];
    if (!zero_fits(s, cfg)) return false;
    if (!play_opening_prepare(s, cfg, &g, &op, note, sizeof note)) return false;
    adopt_game(s, g); /* stops any search first: only then may the engine change */
    if (cfg->threads != s->cfg.threads) tg_engine_set_threads(s->think.engine, cfg->threads);
    tg_engine_set_model(s->think.engine, cfg->model);
    s->cfg = *cfg;
    tg_opening_free(s->opening);
    s->opening = op;
    play_name_players(s);
    if (!play_in_opening(s)) play_start_clock(s); /* else when the opening is over */
    announce_new_game(s);
    if (*note) play_report(s, EV_INFO, note);
    return true;
}

PlaySession *play_session_new(const PlayConfig *cfg, char *err, size_t size) {
    PlaySession *s = calloc(1, sizeof *s);
    if (!s || !think_init(&s->think, cfg->threads)) {
        free(s);
        snprintf(err, size, "%s", play_text(cfg->lang, T_ERR_MEMORY));
        return NULL;
    }
    s->cfg = *cfg;
    s->draw_offer = TG_NOBODY;
    if (!play_new_game(s, cfg)) {
        snprintf(err, size, "%s", s->status);
        play_session_free(s);
        return NULL;
    }
    return s;
}

void play_session_free(PlaySession *s) {
    if (!s) return;
    think_free(&s->think);
    tg_game_free(s->game);
    tg_opening_free(s->opening);
    free(s);
}

bool play_set_moves(PlaySession *s, const char *text) {
    if (play_in_opening(s)) return fail(s, T_ERR_IN_OPENING); /* the opening places them */
    const int w = tg_game_width(s->game), h = tg_game_height(s->game), max = w * h + 2;
    TgPoint *moves = malloc(sizeof *moves * (size_t)max);
    char err[300], pt[8];
    int n = 0, bad = -1;
    TgError e;
    if (!moves) return fail(s, T_ERR_MEMORY);
    bool ok = tg_parse_moves(text, w, h, moves, max, &n, err, sizeof err) == TG_OK;
    if (!ok) {
        play_report(s, EV_ERROR, err);
    } else if ((e = tg_game_set_moves(s->game, moves, n, &bad)) != TG_OK) {
        play_point_text(s, moves[bad], pt, sizeof pt);
        snprintf(err, sizeof err, "--moves: move %d (%s): %s", bad + 1, pt, tg_error_text(e));
        ok = play_report(s, EV_ERROR, err);
    } else {
        play_changed(s);
        play_report(s, EV_POSITION, "");
        if (tg_game_over(s->game)) announce_result(s);
    }
    free(moves);
    return ok;
}

/* ---- The computer ---- */

/// The computer's time a move when none is given: the max level would otherwise think for
/// ever, and the medium level's fixed-depth search can run away on some positions.
static int64_t default_move_ms(TgLevel level) {
    return level == TG_LEVEL_MAX ? MAX_DEFAULT_MS : level == TG_LEVEL_MEDIUM ? MEDIUM_CAP_MS : 0;
}

/// The limits of the computer's move: its level, the time a move, and the clocks.
static TgSearchLimits move_limits(const PlaySession *s) {
    const TgColor c = tg_game_to_move(s->game);
    const PlaySide side = play_side_of(s, c);
    const int64_t now = tg_now_ms();
    TgSearchLimits l = {.level = side.level, .seed = s->cfg.seed + (uint64_t)tg_game_ply(s->game)};
    int64_t turn = s->cfg.move_ms ? s->cfg.move_ms : default_move_ms(side.level);
    const TgClock clock = tg_game_clock(s->game);
    if (clock.game_ms) {
        const int64_t left = tg_game_time_left(s->game, c, now);
        l.game_left_ms = left > 1 ? left : 1;
        l.increment_ms = clock.increment_ms;
    }
    if (clock.move_ms) {
        const int64_t left = tg_game_move_time_left(s->game, now);
        if (!turn || left < turn) turn = left > 1 ? left : 1;
    }
    l.turn_ms = turn;
    return l;
}

static void start_move_search(PlaySession *s) {
    if (play_in_opening(s)) return play_opening_think(s);
    if (s->think.active || !play_computer_to_move(s)) return;
    if (s->paused && s->steps == 0) return;
    const TgSearchLimits l = move_limits(s);
    if (!think_start(&s->think, s->game, THINK_MOVE, &l, s->version)) {
        s->paused = true; /* not again and again */
        fail(s, T_ERR_MEMORY);
    }
}

static void computer_moves(PlaySession *s) {
    const ThinkInfo info = think_result_info(&s->think);
    const TgError e = tg_game_play(s->game, s->think.result.best, tg_now_ms());
    play_changed(s);
    if (e != TG_OK && tg_game_over(s->game)) { /* its time ran out before it answered */
        announce_result(s);
        return;
    }
    if (e != TG_OK) {
        s->paused = true;
        play_tell(s, EV_ERROR, T_ERR_ENGINE, tg_error_text(e), NULL, NULL, NULL);
        return;
    }
    s->last = info;
    if (s->steps > 0) s->steps--;
    announce_move(s, &info);
}

static void hint_ready(PlaySession *s) {
    s->hint_info = think_result_info(&s->think);
    s->hint = s->think.result.best;
    s->has_hint = !tg_point_is_pass(s->hint);
    char pt[8], score[24], line[400];
    play_point_text(s, s->hint, pt, sizeof pt);
    tg_score_text(s->hint_info.score, score, sizeof score);
    play_line_text(s, s->hint_info.pv, s->hint_info.pv_length, line, sizeof line);
    play_tell(s, EV_HINT, T_HINT, pt, score, line, NULL);
}

/// The computer answers a draw offer from its evaluation: it accepts when it judges itself
/// clearly worse, or when the board is nearly full and it is not clearly better.
static void draw_answered(PlaySession *s) {
    const int mine = -s->think.result.score; /* the search ran from the human's side */
    const int cells = tg_game_width(s->game) * tg_game_height(s->game);
    const bool nearly_full = (cells - tg_game_ply(s->game)) * 10 < cells;
    const TgColor computer = other(human_color(s));
    if (mine <= -DRAW_ACCEPT_MARGIN || (nearly_full && mine < DRAW_ACCEPT_MARGIN)) {
        tg_game_agree_draw(s->game);
        play_changed(s);
        announce_result(s);
        return;
    }
    play_tell(s, EV_INFO, T_DRAW_DECLINED, color_text(s, computer), NULL, NULL, NULL);
}

/// Takes in a finished search, if any.
static void collect(PlaySession *s) {
    Thinker *t = &s->think;
    if (!t->active || !think_finished(t)) return;
    const ThinkKind kind = t->kind;
    t->kind = THINK_NONE;
    if (t->version != s->version) return; /* stale: the position moved on */
    if (t->error != TG_OK) {
        if (kind == THINK_MOVE || kind == THINK_OPENING) s->paused = true;
        play_tell(s, EV_ERROR, T_ERR_ENGINE, tg_error_text(t->error), NULL, NULL, NULL);
        return;
    }
    if (kind == THINK_OPENING)
        play_opening_decided(s);
    else if (kind == THINK_MOVE)
        computer_moves(s);
    else if (kind == THINK_HINT)
        hint_ready(s);
    else if (kind == THINK_DRAW)
        draw_answered(s);
}

void play_tick(PlaySession *s) {
    collect(s);
    if (tg_game_check_time(s->game, tg_now_ms())) {
        think_cancel(&s->think);
        play_changed(s);
        announce_result(s);
    }
    start_move_search(s);
}

/* ---- Moves ---- */

/// Common checks before a human acts on the board.
static bool human_may_move(PlaySession *s) {
    if (s->replay) return fail(s, T_ERR_REPLAY);
    if (tg_game_over(s->game)) return fail(s, T_ERR_GAME_OVER);
    if (side_to_move(s).computer) return fail(s, T_ERR_NOT_HUMAN);
    return true;
}

static bool refuse(PlaySession *s, TgPoint p, TgError e, TgFoul foul) {
    char pt[8], size[16];
    play_point_text(s, p, pt, sizeof pt);
    snprintf(size, sizeof size, "%dx%d", tg_game_width(s->game), tg_game_height(s->game));
    switch (e) {
    case TG_ERR_OFF_BOARD: return play_tell(s, EV_ERROR, T_ERR_OFF_BOARD, pt, size, NULL, NULL);
    case TG_ERR_OCCUPIED: return play_tell(s, EV_ERROR, T_ERR_OCCUPIED, pt, NULL, NULL, NULL);
    case TG_ERR_FORBIDDEN:
        return play_tell(s, EV_ERROR, T_ERR_FORBIDDEN, pt, play_foul_text(s->cfg.lang, foul), NULL,
                         NULL);
    case TG_ERR_GAME_OVER: return fail(s, T_ERR_GAME_OVER);
    case TG_ERR_PASS: return fail(s, T_ERR_PASS);
    default: return play_tell(s, EV_ERROR, T_ERR_ENGINE, tg_error_text(e), NULL, NULL, NULL);
    }
}

/// Plays a human's move (or pass) after the common checks.
static bool human_plays(PlaySession *s, TgPoint p) {
    if (play_in_opening(s)) return play_opening_point(s, tg_opening_step(s->opening).kind, p);
    if (!human_may_move(s)) return false;
    TgFoul foul = TG_FOUL_NONE;
    TgError e = tg_game_check(s->game, p, &foul);
    if (e != TG_OK) return refuse(s, p, e, foul);
    think_cancel(&s->think); /* a hint, or the weighing of a draw offer */
    if (s->draw_offer != TG_NOBODY)
        play_tell(s, EV_INFO, T_DRAW_DECLINED, color_text(s, other(s->draw_offer)), NULL, NULL,
                  NULL);
    s->draw_offer = TG_NOBODY;
    e = tg_game_play(s->game, p, tg_now_ms());
    play_changed(s);
    if (e != TG_OK && tg_game_over(s->game)) { /* out of time before the move */
        announce_result(s);
        return false;
    }
    if (e != TG_OK) return refuse(s, p, e, TG_FOUL_NONE);
    announce_move(s, NULL);
    return true;
}

bool play_place(PlaySession *s, TgPoint p) { return human_plays(s, p); }

bool play_pass(PlaySession *s) { return human_plays(s, (TgPoint){-1, -1}); }

/* ---- Undo and redo ---- */

/// Who made the move at `index` of the record: Black made the even ones.
static PlaySide mover_of(const PlaySession *s, int index) {
    return play_side_of(s, index % 2 ? TG_WHITE : TG_BLACK);
}

/// The plies the opening phase placed: undo takes them back through the phase.
static int opening_plies(const PlaySession *s) {
    TgPoint stones[TG_OPENING_MAX_STONES];
    return s->opening ? tg_opening_stones(s->opening, stones, TG_OPENING_MAX_STONES) : 0;
}

/// Plies to take back: one, or against the computer everything since the human's last move
/// (0 when the human has made none since the opening).
static int undo_count(const PlaySession *s) {
    const int ply = tg_game_ply(s->game), first = opening_plies(s);
    if (!against_computer(s)) return ply > first;
    for (int i = ply - 1; i >= first; i--)
        if (!mover_of(s, i).computer) return ply - i;
    return 0;
}

/// A result without a move (resignation, agreement, time) is undone by lifting the result.
static bool undo_result(PlaySession *s) {
    const TgReason r = tg_game_result(s->game).reason;
    if (r != TG_REASON_RESIGN && r != TG_REASON_AGREEMENT && r != TG_REASON_TIME) return false;
    tg_game_set_result(s->game, (TgResult){.winner = TG_NOBODY});
    return true;
}

/// After jumping through the record: the computers hold still where both play, so that the
/// position can be looked at.
static void after_jump(PlaySession *s, TextId id, int n) {
    play_changed(s);
    s->draw_offer = TG_NOBODY;
    if (play_watching(s)) s->paused = true;
    play_sync_clock(s);
    char count[16];
    snprintf(count, sizeof count, "%d", n);
    play_tell(s, EV_POSITION, id, count, color_text(s, tg_game_to_move(s->game)), NULL, NULL);
}

bool play_undo(PlaySession *s) {
    if (s->replay) return play_replay_goto(s, tg_game_ply(s->game) - 1);
    think_cancel(&s->think);
    if (undo_result(s)) {
        after_jump(s, T_UNDONE_RESULT, 0);
        return true;
    }
    const int n = undo_count(s);
    if (n == 0 && s->opening) return play_opening_undo(s); /* the opening's own actions */
    if (n == 0) return fail(s, T_ERR_NOTHING_UNDO);
    for (int i = 0; i < n; i++) tg_game_undo(s->game);
    after_jump(s, T_UNDONE, n);
    return true;
}

bool play_redo(PlaySession *s) {
    if (s->replay) return play_replay_goto(s, tg_game_ply(s->game) + 1);
    if (tg_game_ply(s->game) >= tg_game_length(s->game) || tg_game_over(s->game))
        return fail(s, T_ERR_NOTHING_REDO);
    think_cancel(&s->think);
    int n = 0;
    do { /* against the computer: the human's move and the reply it had */
        if (tg_game_redo(s->game) != TG_OK) break;
        n++;
    } while (against_computer(s) && tg_game_ply(s->game) < tg_game_length(s->game) &&
             play_computer_to_move(s));
    after_jump(s, T_REDONE, n);
    if (tg_game_over(s->game)) announce_result(s);
    return true;
}

/* ---- Resign, draw, hint, move now, pause ---- */

TgColor play_acting_human(const PlaySession *s) {
    if (s->replay || tg_game_over(s->game) || play_watching(s)) return TG_NOBODY;
    if (play_in_opening(s)) return TG_NOBODY; /* no resigning or draws before the game */
    return against_computer(s) ? human_color(s) : tg_game_to_move(s->game);
}

/// The human who acts, or false with the reason reported.
static bool acting_human(PlaySession *s, TgColor *who) {
    if (s->replay) return fail(s, T_ERR_REPLAY);
    if (play_in_opening(s)) return fail(s, T_ERR_IN_OPENING);
    if (tg_game_over(s->game)) return fail(s, T_ERR_GAME_OVER);
    if (play_watching(s)) return fail(s, T_ERR_NO_HUMAN);
    *who = play_acting_human(s);
    return true;
}

bool play_resign(PlaySession *s) {
    TgColor loser;
    if (!acting_human(s, &loser)) return false;
    think_cancel(&s->think);
    tg_game_resign(s->game, loser);
    play_changed(s);
    announce_result(s);
    return true;
}

bool play_offer_draw(PlaySession *s) {
    TgColor me;
    if (!acting_human(s, &me)) return false;
    if (!against_computer(s)) {
        s->draw_offer = me;
        return play_tell(s, EV_INFO, T_DRAW_OFFER, color_text(s, me), color_text(s, other(me)),
                         NULL, NULL);
    }
    if (!play_human_to_move(s)) return fail(s, T_ERR_DRAW_BUSY);
    const TgSearchLimits l = {.level = TG_LEVEL_HARD, .turn_ms = DRAW_SEARCH_MS};
    if (!think_start(&s->think, s->game, THINK_DRAW, &l, s->version)) return fail(s, T_ERR_MEMORY);
    return play_tell(s, EV_INFO, T_DRAW_THINKING, NULL, NULL, NULL, NULL);
}

bool play_answer_draw(PlaySession *s, bool accept) {
    if (s->draw_offer == TG_NOBODY || tg_game_over(s->game)) return fail(s, T_ERR_NO_OFFER);
    const TgColor answering = other(s->draw_offer);
    s->draw_offer = TG_NOBODY;
    if (!accept)
        return play_tell(s, EV_INFO, T_DRAW_DECLINED, color_text(s, answering), NULL, NULL, NULL);
    tg_game_agree_draw(s->game);
    play_changed(s);
    announce_result(s);
    return true;
}

bool play_hint(PlaySession *s) {
    if (play_in_opening(s)) return fail(s, T_ERR_IN_OPENING);
    if (!human_may_move(s)) return false;
    const TgSearchLimits l = {.level = TG_LEVEL_MAX, .turn_ms = s->cfg.hint_ms};
    if (!think_start(&s->think, s->game, THINK_HINT, &l, s->version)) return fail(s, T_ERR_MEMORY);
    return play_tell(s, EV_INFO, T_HINT_WAIT, NULL, NULL, NULL, NULL);
}

bool play_move_now(PlaySession *s) {
    if (!s->think.active || s->think.kind == THINK_DRAW) return fail(s, T_ERR_NOT_THINKING);
    think_hurry(&s->think);
    return play_tell(s, EV_INFO, T_MOVE_NOW, NULL, NULL, NULL, NULL);
}

bool play_toggle_pause(PlaySession *s) {
    s->paused = !s->paused;
    s->steps = 0;
    if (s->paused && play_thinking(s)) think_cancel(&s->think);
    play_sync_clock(s);
    return play_tell(s, EV_INFO, s->paused ? T_PAUSED : T_RESUMED, NULL, NULL, NULL, NULL);
}

bool play_step(PlaySession *s) {
    if (!s->paused) return fail(s, T_ERR_NOT_PAUSED);
    if (!play_computer_to_move(s)) return fail(s, T_ERR_NOT_COMPUTER);
    s->steps = 1;
    return true;
}

/* ---- Records and replay ---- */

/// Reads a whole file (at most 16 MiB); NULL with the reason in err.
static char *read_file(const char *path, size_t *len, char *err, size_t size) {
    FILE *f = fopen(path, "rb");
    if (!f) return snprintf(err, size, "%s", strerror(errno)), NULL;
    const size_t cap = (size_t)16 << 20;
    char *buf = malloc(cap + 1);
    size_t n = buf ? fread(buf, 1, cap + 1, f) : 0;
    const bool bad = !buf || ferror(f) || n > cap;
    fclose(f);
    if (bad) {
        snprintf(err, size, "%s", buf ? "unreadable, or over 16 MiB" : "out of memory");
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static bool write_file(const char *path, const char *data, size_t len, char *err, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) return snprintf(err, size, "%s", strerror(errno)), false;
    const bool ok = fwrite(data, 1, len, f) == len;
    if (fclose(f) != 0 || !ok) return snprintf(err, size, "%s", strerror(errno)), false;
    return true;
}

bool play_save(PlaySession *s, const char *path) {
    const TgFormat format = tg_format_from_path(path);
    if (format == TG_FORMAT_UNKNOWN)
        return play_tell(s, EV_ERROR, T_ERR_FORMAT, path, NULL, NULL, NULL);
    char err[256];
    size_t len;
    char *data = tg_record_write(s->game, format, &len, err, sizeof err);
    const bool ok = data && write_file(path, data, len, err, sizeof err);
    free(data);
    if (!ok) return play_tell(s, EV_ERROR, T_ERR_SAVE, path, err, NULL, NULL);
    return play_tell(s, EV_INFO, T_SAVED, path, NULL, NULL, NULL);
}

/// Makes a loaded record the session's game. Under an opening line that fits it the players
/// keep the colours the phase gave them; a phase still under way resumes at once at its step
/// (its offers, choices and declarations are in the line, not in the moves a replay steps
/// through), and everything else opens in replay.
static void adopt_record(PlaySession *s, TgGame *g, TgOpening *op) {
    adopt_game(s, g);
    tg_opening_free(s->opening); /* without a fitting line, the record's colours are its players */
    s->opening = op;
    s->cfg.rule = tg_game_rule(g);
    s->cfg.width = tg_game_width(g);
    s->cfg.height = tg_game_height(g);
    s->replay = !op || tg_opening_done(op);
    if (!s->replay) play_opening_resume(s, tg_game_length(g));
}

/// What was loaded, the opening line and who holds which colour, or why the line is not used.
static void announce_load(PlaySession *s, const char *path, const char *why) {
    char moves[16];
    snprintf(moves, sizeof moves, "%d", tg_game_length(s->game));
    play_tell(s, EV_POSITION, s->replay ? T_LOADED : T_LOADED_PHASE, path, moves, NULL, NULL);
    const char *line = tg_game_info(s->game, "opening");
    if (line && *line) play_tell(s, EV_INFO, T_OP_LOADED, line, NULL, NULL, NULL);
    if (*why) {
        play_tell(s, EV_INFO, T_OP_NOT_RESTORED, why, NULL, NULL, NULL);
        /* a plain game now: a save must not keep a line that its moves contradict */
        tg_game_set_info(s->game, "opening", NULL);
    } else if (s->opening) {
        play_opening_players(s);
    }
    if (tg_game_over(s->game)) announce_result(s);
}

bool play_load(PlaySession *s, const char *path) {
    const TgFormat format = tg_format_from_path(path);
    if (format == TG_FORMAT_UNKNOWN)
        return play_tell(s, EV_ERROR, T_ERR_FORMAT, path, NULL, NULL, NULL);
    char err[256], why[300];
    size_t len;
    char *data = read_file(path, &len, err, sizeof err);
    const int size = s->cfg.width == s->cfg.height ? s->cfg.width : 0;
    TgGame *g = data ? tg_record_read(format, data, len, s->cfg.rule, size, err, sizeof err) : NULL;
    free(data);
    if (!g) return play_tell(s, EV_ERROR, T_ERR_LOAD, path, err, NULL, NULL);
    adopt_record(s, g, play_opening_of_record(s, g, why, sizeof why));
    announce_load(s, path, why);
    zero_fits(s, &s->cfg); /* a record of another board: told now, not at the zero level's move */
    return true;
}

bool play_replay_goto(PlaySession *s, int ply) {
    if (!s->replay) return fail(s, T_ERR_NOT_REPLAY);
    const int length = tg_game_length(s->game);
    if (ply < 0) return fail(s, T_ERR_NOTHING_UNDO);
    if (ply > length) return fail(s, T_ERR_NOTHING_REDO);
    tg_game_goto(s->game, ply);
    play_changed(s);
    char at[16], of[16];
    snprintf(at, sizeof at, "%d", ply);
    snprintf(of, sizeof of, "%d", length);
    play_tell(s, EV_POSITION, T_REPLAY_AT, at, of, NULL, NULL);
    if (tg_game_over(s->game)) announce_result(s);
    return true;
}

bool play_replay_leave(PlaySession *s) {
    if (!s->replay) return fail(s, T_ERR_NOT_REPLAY);
    const int ply = tg_game_ply(s->game);
    s->replay = false;
    if (ply < opening_plies(s)) { /* from a stone of the opening: its phase goes on there */
        if (!play_opening_resume(s, ply)) return s->replay = true, false;
    } else {
        play_name_players(s);
        play_start_clock(s);
        play_changed(s);
    }
    char at[16];
    snprintf(at, sizeof at, "%d", ply);
    return play_tell(s, EV_INFO, T_REPLAY_LEFT, at, NULL, NULL, NULL);
}
