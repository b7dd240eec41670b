/*
 * opening.c — the opening phase of a `tengen play` session (swap, swap2, RIF, ...): who
 * is asked what, the human's placements, choices, declarations, offers and selections, the
 * computer's decisions (tg_opening_decide on the background thread), undo inside the phase,
 * and the start positions (one of the 26 renju openings, or a balanced one).
 *
 * The core's TgOpening is the truth; the session's game is rebuilt from it (tg_opening_game)
 * after every action, so the board, the record and its OPENING[] line always agree with it.
 * The opening is kept once done: it says which player holds which colour.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play.h"

enum { BALANCED_NODES = 20000 }; ///< modest: a start position, not a study

/* ---- Who is who ---- */

bool play_in_opening(const PlaySession *s) {
    return s->opening && !s->replay && !tg_opening_done(s->opening);
}

static bool against_computer(const PlaySession *s) {
    return s->cfg.side[0].computer != s->cfg.side[1].computer;
}

void play_player_text(const PlaySession *s, TgPlayer p, char *buf, size_t size) {
    const PlayLang L = s->cfg.lang;
    const PlaySide side = s->cfg.side[p];
    char who[64];
    if (!side.computer && against_computer(s))
        snprintf(who, sizeof who, "%s", play_text(L, T_YOU));
    else
        play_side_text(L, side, who, sizeof who);
    play_fill(buf, size, play_text(L, T_PLAYER), p == TG_PLAYER_1 ? "1" : "2", who,
              (const char *)NULL);
}

/// "Player 1 (you) — White".
static void holder_text(const PlaySession *s, TgPlayer p, char *buf, size_t size) {
    char who[96];
    play_player_text(s, p, who, sizeof who);
    play_fill(buf, size, play_text(s->cfg.lang, T_PLAYER_COLOR), who,
              play_color_text(s->cfg.lang, tg_opening_color_of(s->opening, p)), (const char *)NULL);
}

void play_opening_header(const PlaySession *s, char *buf, size_t size) {
    const PlayLang L = s->cfg.lang;
    char dims[16], p1[160], p2[160];
    snprintf(dims, sizeof dims, "%dx%d", s->cfg.width, s->cfg.height);
    holder_text(s, TG_PLAYER_1, p1, sizeof p1);
    holder_text(s, TG_PLAYER_2, p2, sizeof p2);
    play_fill(buf, size, play_text(L, T_HEADER_OPENING), play_rule_text(L, s->cfg.rule), dims,
              tg_opening_rule_name(tg_opening_rule(s->opening)), p1, p2, (const char *)NULL);
}

/* ---- The step as a sentence ---- */

static const char *stone_word(PlayLang L, TgColor c) {
    return play_text(L, c == TG_WHITE ? T_WHITE_STONE : T_BLACK_STONE);
}

static TgColor other(TgColor c) { return c == TG_BLACK ? TG_WHITE : TG_BLACK; }

/// The choice as the chooser sees it: staying keeps their colour, swapping takes the other.
static void choice_text(const PlaySession *s, TgChoice choice, TgColor chooser, char *buf,
                        size_t size) {
    const PlayLang L = s->cfg.lang;
    const TextId id = choice == TG_CHOICE_STAY        ? T_CHOICE_STAY
                      : choice == TG_CHOICE_SWAP      ? T_CHOICE_SWAP
                      : choice == TG_CHOICE_PLACE_TWO ? T_CHOICE_PLACE_TWO
                                                      : T_CHOICE_OFFER;
    const TgColor shown = choice == TG_CHOICE_SWAP ? other(chooser) : chooser;
    play_fill(buf, size, play_text(L, id), play_color_text(L, shown), (const char *)NULL);
}

static void choices_text(const PlaySession *s, const TgOpeningStep *st, char *buf, size_t size) {
    static const TgChoice ALL[] = {TG_CHOICE_STAY, TG_CHOICE_SWAP, TG_CHOICE_PLACE_TWO,
                                   TG_CHOICE_OFFER};
    size_t used = 0;
    *buf = '\0';
    for (size_t i = 0; i < sizeof ALL / sizeof ALL[0]; i++) {
        if (!(st->choices & ALL[i]) || used + 1 >= size) continue;
        char one[160];
        choice_text(s, ALL[i], st->color, one, sizeof one);
        used += (size_t)snprintf(buf + used, size - used, "%s%s",
                                 used ? play_text(s->cfg.lang, T_LIST_SEP) : "", one);
    }
}

/// " inside the central 5x5 square", " at the centre" or nothing.
static void area_text(const PlaySession *s, int area, char *buf, size_t size) {
    char side[16];
    snprintf(side, sizeof side, "%d", area);
    *buf = '\0';
    if (area == 1)
        snprintf(buf, size, "%s", play_text(s->cfg.lang, T_STEP_CENTRE));
    else if (area > 1 && area < tg_opening_size(s->opening))
        play_fill(buf, size, play_text(s->cfg.lang, T_STEP_SQUARE), side, (const char *)NULL);
}

static void offers_text(const PlaySession *s, char *buf, size_t size) {
    TgPoint offers[TG_OPENING_MAX_OFFERS];
    const int n = tg_opening_offers(s->opening, offers, TG_OPENING_MAX_OFFERS);
    play_line_text(s, offers, n, buf, size);
}

static void place_text(const PlaySession *s, const TgOpeningStep *st, const char *who, char *buf,
                       size_t size) {
    const PlayLang L = s->cfg.lang;
    char number[16], count[16], area[80];
    TgPoint stones[TG_OPENING_MAX_STONES];
    snprintf(number, sizeof number, "%d",
             tg_opening_stones(s->opening, stones, TG_OPENING_MAX_STONES) + 1);
    snprintf(count, sizeof count, "%d", st->count);
    area_text(s, st->area, area, sizeof area);
    const char *colour = play_color_text(L, tg_opening_color_of(s->opening, st->player));
    if (st->count > 1)
        play_fill(buf, size, play_text(L, T_STEP_PLACE_MANY), who, colour, count, number,
                  stone_word(L, st->color), area, (const char *)NULL);
    else
        play_fill(buf, size, play_text(L, T_STEP_PLACE), who, colour, number,
                  stone_word(L, st->color), area, (const char *)NULL);
}

void play_step_text(const PlaySession *s, char *buf, size_t size) {
    *buf = '\0';
    if (!play_in_opening(s)) return;
    const PlayLang L = s->cfg.lang;
    const TgOpeningStep st = tg_opening_step(s->opening);
    const char *colour = play_color_text(L, st.color);
    char who[96], a[400], b[16];
    play_player_text(s, st.player, who, sizeof who);
    switch (st.kind) {
    case TG_STEP_PLACE: place_text(s, &st, who, buf, size); return;
    case TG_STEP_CHOOSE:
        choices_text(s, &st, a, sizeof a);
        play_fill(buf, size, play_text(L, T_STEP_CHOOSE), who, colour, a, (const char *)NULL);
        return;
    case TG_STEP_DECLARE:
        snprintf(a, sizeof a, "%d", st.min);
        snprintf(b, sizeof b, "%d", st.max);
        play_fill(buf, size, play_text(L, T_STEP_DECLARE), who, colour, a, b, (const char *)NULL);
        return;
    case TG_STEP_OFFER:
        snprintf(a, sizeof a, "%d", st.count);
        play_fill(buf, size, play_text(L, T_STEP_OFFER), who, colour, a, (const char *)NULL);
        return;
    case TG_STEP_SELECT:
        offers_text(s, a, sizeof a);
        play_fill(buf, size, play_text(L, T_STEP_SELECT), who, colour, a, (const char *)NULL);
        return;
    default: return;
    }
}

/* ---- Actions ---- */

/// One action of the phase, by a human or the computer.
typedef struct Act {
    TgStepKind kind;
    TgChoice choice;
    int number;
    TgPoint p;
} Act;

static TgError perform(TgOpening *op, const Act *a) {
    switch (a->kind) {
    case TG_STEP_PLACE: return tg_opening_place(op, a->p);
    case TG_STEP_CHOOSE: return tg_opening_choose(op, a->choice);
    case TG_STEP_DECLARE: return tg_opening_declare(op, a->number);
    case TG_STEP_OFFER: return tg_opening_offer(op, a->p);
    case TG_STEP_SELECT: return tg_opening_select(op, a->p);
    default: return TG_ERR_ARGUMENT;
    }
}

/// The message for an action just taken by `st.player`, who was asked `st`.
static void act_text(const PlaySession *s, const Act *a, const TgOpeningStep *st, char *buf,
                     size_t size) {
    const PlayLang L = s->cfg.lang;
    char who[96], what[200], pt[8];
    play_player_text(s, st->player, who, sizeof who);
    play_point_text(s, a->p, pt, sizeof pt);
    switch (a->kind) {
    case TG_STEP_PLACE:
        play_fill(buf, size, play_text(L, T_OP_PLACED), who, stone_word(L, st->color), pt,
                  (const char *)NULL);
        return;
    case TG_STEP_CHOOSE:
        choice_text(s, a->choice, st->color, what, sizeof what);
        play_fill(buf, size, play_text(L, T_OP_CHOSE), who, what, (const char *)NULL);
        return;
    case TG_STEP_DECLARE:
        snprintf(what, sizeof what, "%d", a->number);
        play_fill(buf, size, play_text(L, T_OP_DECLARED), who, what, (const char *)NULL);
        return;
    default:
        play_fill(buf, size, play_text(L, a->kind == TG_STEP_OFFER ? T_OP_OFFERED : T_OP_SELECTED),
                  who, pt, (const char *)NULL);
        return;
    }
}

/// Puts `g`, made from the phase, in place of the session's game, with the players' names.
static void put_game(PlaySession *s, TgGame *g) {
    think_cancel(&s->think); /* a stale decision must not outlive the position it was for */
    tg_game_free(s->game);
    s->game = g;
    play_name_players(s);
    play_changed(s);
}

/// The game again from the phase: its stones, the record's OPENING line, the players' names.
static bool rebuild_game(PlaySession *s) {
    TgGame *g = tg_opening_game(s->opening);
    if (!g) return play_report_text(s, EV_ERROR, T_ERR_MEMORY);
    put_game(s, g);
    return true;
}

/// After an action: who holds which colour now, and the end of the phase.
static void after_act(PlaySession *s, TgColor p1_before) {
    char p1[160], p2[160], line[600];
    const PlayLang L = s->cfg.lang;
    if (tg_opening_color_of(s->opening, TG_PLAYER_1) != p1_before) {
        holder_text(s, TG_PLAYER_1, p1, sizeof p1);
        holder_text(s, TG_PLAYER_2, p2, sizeof p2);
        play_report(
            s, EV_INFO,
            play_fill(line, sizeof line, play_text(L, T_OP_COLOURS), p1, p2, (const char *)NULL));
    }
    if (!tg_opening_done(s->opening)) return;
    char text[400];
    tg_opening_text(s->opening, text, sizeof text);
    play_fill(line, sizeof line, play_text(L, T_OP_DONE), text,
              play_color_text(L, tg_game_to_move(s->game)), (const char *)NULL);
    play_report(s, EV_INFO, line);
    play_start_clock(s); /* the clocks start with the game proper */
}

/// Takes one action; reports it, or the core's reason for refusing it.
static bool act(PlaySession *s, const Act *a) {
    const TgOpeningStep st = tg_opening_step(s->opening);
    const TgColor p1_before = tg_opening_color_of(s->opening, TG_PLAYER_1);
    const TgError e = perform(s->opening, a);
    if (e != TG_OK) {
        const char *why = tg_opening_why(s->opening);
        return play_say(s, EV_ERROR, T_ERR_OPENING, *why ? why : tg_error_text(e), NULL);
    }
    char line[600];
    act_text(s, a, &st, line, sizeof line);
    if (!rebuild_game(s)) return false;
    play_report(s, EV_INFO, line);
    after_act(s, p1_before);
    return true;
}

/// A human may act on the phase now.
static bool human_may_act(PlaySession *s) {
    if (s->replay) return play_report_text(s, EV_ERROR, T_ERR_REPLAY);
    if (!play_in_opening(s)) return play_report_text(s, EV_ERROR, T_ERR_NOT_OPENING);
    if (s->cfg.side[tg_opening_step(s->opening).player].computer)
        return play_report_text(s, EV_ERROR, T_ERR_NOT_HUMAN);
    return true;
}

bool play_opening_point(PlaySession *s, TgStepKind kind, TgPoint p) {
    if (!human_may_act(s)) return false;
    return act(s, &(Act){.kind = kind, .p = p});
}

bool play_opening_choose(PlaySession *s, TgChoice choice) {
    if (!human_may_act(s)) return false;
    return act(s, &(Act){.kind = TG_STEP_CHOOSE, .choice = choice});
}

bool play_opening_take(PlaySession *s, TgColor color) {
    if (!human_may_act(s)) return false;
    const TgOpeningStep st = tg_opening_step(s->opening);
    const TgChoice c = color == st.color ? TG_CHOICE_STAY : TG_CHOICE_SWAP;
    return act(s, &(Act){.kind = TG_STEP_CHOOSE, .choice = c});
}

bool play_opening_declare(PlaySession *s, int n) {
    if (!human_may_act(s)) return false;
    return act(s, &(Act){.kind = TG_STEP_DECLARE, .number = n});
}

/* ---- The computer ---- */

void play_opening_think(PlaySession *s) {
    if (s->think.active || !play_in_opening(s)) return;
    const PlaySide side = s->cfg.side[tg_opening_step(s->opening).player];
    if (!side.computer || (s->paused && s->steps == 0)) return;
    TgPoint stones[TG_OPENING_MAX_STONES];
    const int n = tg_opening_stones(s->opening, stones, TG_OPENING_MAX_STONES);
    const TgOpeningLimits l = {.nodes = tg_opening_level_nodes(side.level),
                               .time_ms = s->cfg.move_ms,
                               .seed = s->cfg.seed + (uint64_t)n};
    if (!think_start_opening(&s->think, s->opening, &l, s->version)) {
        s->paused = true; /* not again and again */
        play_report_text(s, EV_ERROR, T_ERR_MEMORY);
    }
}

/// Takes the computer's decision action by action, so that each is reported as a human's is.
bool play_opening_decided(PlaySession *s) {
    const TgOpeningDecision *d = &s->think.decision;
    Act a = {.kind = d->kind, .choice = d->choice, .number = d->number};
    const int count = d->kind == TG_STEP_CHOOSE || d->kind == TG_STEP_DECLARE ? 1 : d->count;
    char why[300];
    play_report(
        s, EV_INFO, /* the reason first: the actions may end the phase */
        play_fill(why, sizeof why, play_text(s->cfg.lang, T_OP_WHY), d->why, (const char *)NULL));
    for (int i = 0; i < count && play_in_opening(s); i++) {
        if (i < TG_OPENING_MAX_OFFERS) a.p = d->points[i];
        if (!act(s, &a)) {
            s->paused = true; /* the engine's answer was refused: let the human look */
            return false;
        }
    }
    if (s->steps > 0) s->steps--;
    return true;
}

/* ---- Undo ---- */

/// Is the phase asking the computer (against a human, who would see it answer again)?
static bool asks_computer(const PlaySession *s) {
    return against_computer(s) && s->cfg.side[tg_opening_step(s->opening).player].computer;
}

bool play_opening_undo(PlaySession *s) {
    TgOpening *before = tg_opening_clone(s->opening);
    if (!before) return play_report_text(s, EV_ERROR, T_ERR_MEMORY);
    int n = 0;
    while (tg_opening_undo(s->opening) == TG_OK) { /* back to the human's last action */
        n++;
        if (!asks_computer(s)) break;
    }
    if (n == 0 || asks_computer(s)) { /* the human has not acted yet */
        tg_opening_free(s->opening);
        s->opening = before;
        return play_report_text(s, EV_ERROR, T_ERR_NOTHING_UNDO);
    }
    tg_opening_free(before);
    if (!rebuild_game(s)) return false;
    char count[16];
    snprintf(count, sizeof count, "%d", n);
    return play_say(s, EV_POSITION, T_OP_UNDONE, count, NULL);
}

/* ---- Loaded records ---- */

/// Are the phase's stones the record's first moves, and when the phase is under way, all of
/// the record (no moves past it, no result)? Anything else would put the board and the phase
/// at odds.
static bool fits_record(const TgOpening *op, const TgGame *g) {
    TgPoint stones[TG_OPENING_MAX_STONES];
    const int n = tg_opening_stones(op, stones, TG_OPENING_MAX_STONES), length = tg_game_length(g);
    if (length < n || (!tg_opening_done(op) && (length > n || tg_game_over(g)))) return false;
    for (int i = 0; i < n; i++) {
        const TgPoint m = tg_game_move(g, i);
        if (m.x != stones[i].x || m.y != stones[i].y) return false;
    }
    return true;
}

TgOpening *play_opening_of_record(const PlaySession *s, const TgGame *g, char *why, size_t size) {
    const char *line = tg_game_info(g, "opening");
    const int width = tg_game_width(g);
    *why = '\0';
    if (!line || !*line) return NULL;
    const char *mismatch = play_text(s->cfg.lang, T_OP_MISMATCH);
    if (width != tg_game_height(g)) /* the opening rules are for square boards */
        return snprintf(why, size, "%s", mismatch), NULL;
    TgOpening *op = tg_opening_from_text(line, tg_game_rule(g), width, why, size);
    if (!op) return NULL;
    if (tg_opening_rule(op) != TG_OPENING_NONE && fits_record(op, g)) return op;
    if (tg_opening_rule(op) != TG_OPENING_NONE) snprintf(why, size, "%s", mismatch);
    tg_opening_free(op); /* "none" has no phase to keep: Black simply moved first */
    return NULL;
}

bool play_opening_resume(PlaySession *s, int ply) {
    TgOpening *op = tg_opening_clone(s->opening);
    TgPoint stones[TG_OPENING_MAX_STONES];
    while (op && tg_opening_stones(op, stones, TG_OPENING_MAX_STONES) > ply)
        if (tg_opening_undo(op) != TG_OK) break;
    TgGame *g = op ? tg_opening_game(op) : NULL;
    if (!g) { /* all or nothing: the session keeps its phase and game */
        tg_opening_free(op);
        return play_report_text(s, EV_ERROR, T_ERR_MEMORY);
    }
    tg_opening_free(s->opening);
    s->opening = op;
    put_game(s, g);
    return true;
}

void play_opening_players(PlaySession *s) {
    char p1[160], p2[160];
    holder_text(s, TG_PLAYER_1, p1, sizeof p1);
    holder_text(s, TG_PLAYER_2, p2, sizeof p2);
    play_say(s, EV_INFO, T_OP_PLAYERS, p1, p2);
}

/* ---- Start positions ---- */

/// The three stones to start from, when the config asks for some (count 0 otherwise), with a
/// line saying what they are.
static bool start_stones(PlaySession *s, const PlayConfig *c, TgPoint st[3], int *count, char *note,
                         size_t size) {
    const PlayLang L = c->lang;
    char line[64], score[24];
    *count = 0;
    if (c->balanced) {
        TgBalanced b;
        const TgOpeningLimits l = {.nodes = BALANCED_NODES, .seed = c->seed};
        think_cancel(&s->think); /* the engine is the search thread's while it runs */
        const TgError e = tg_opening_balanced(s->think.engine, c->rule, c->width, &l, &b);
        if (e != TG_OK) return play_say(s, EV_ERROR, T_ERR_ENGINE, tg_error_text(e), NULL);
        memcpy(st, b.stones, sizeof b.stones);
        tg_format_moves(st, 3, c->width, c->height, " ", line, sizeof line);
        tg_score_text(b.score, score, sizeof score);
        play_fill(note, size, play_text(L, T_OP_BALANCED), line, score, (const char *)NULL);
        return *count = 3, true;
    }
    if (c->start == START_EMPTY) return true;
    const int index = c->start >= 0 ? c->start : (int)(c->seed % TG_RENJU_OPENINGS);
    const int symmetry = c->start >= 0 ? 0 : (int)(c->seed / TG_RENJU_OPENINGS % 8);
    if (tg_renju_opening_stones(index, c->width, symmetry, st) != TG_OK)
        return play_report_text(s, EV_ERROR, T_ERR_SQUARE);
    const TgRenjuOpening *o = tg_renju_opening(index);
    tg_format_moves(st, 3, c->width, c->height, " ", line, sizeof line);
    play_fill(note, size, play_text(L, T_OP_START), o->code, o->name, o->chinese, line,
              (const char *)NULL);
    return *count = 3, true;
}

/// The opening phase of `c` from `stones`; NULL after reporting why.
static TgOpening *new_phase(PlaySession *s, const PlayConfig *c, const TgPoint *stones, int count) {
    TgOpening *op = tg_opening_new(c->opening, c->rule, c->width);
    if (!op) return play_report_text(s, EV_ERROR, T_ERR_SQUARE), NULL;
    const TgOpeningStep st = tg_opening_step(op);
    if (count > 0 && (st.kind != TG_STEP_PLACE || st.count < count)) {
        play_say(s, EV_ERROR, T_ERR_START_STONES, tg_opening_rule_name(c->opening), NULL);
        tg_opening_free(op);
        return NULL;
    }
    for (int i = 0; i < count; i++) {
        if (tg_opening_place(op, stones[i]) != TG_OK) {
            play_say(s, EV_ERROR, T_ERR_OPENING, tg_opening_why(op), NULL);
            tg_opening_free(op);
            return NULL;
        }
    }
    return op;
}

bool play_opening_prepare(PlaySession *s, const PlayConfig *c, TgGame **game, TgOpening **op,
                          char *note, size_t size) {
    TgPoint stones[3];
    int count = 0;
    *game = NULL;
    *op = NULL;
    *note = '\0';
    if (c->opening != TG_OPENING_NONE && c->width != c->height)
        return play_report_text(s, EV_ERROR, T_ERR_SQUARE);
    if (!start_stones(s, c, stones, &count, note, size)) return false;
    if (c->opening != TG_OPENING_NONE) {
        if (!(*op = new_phase(s, c, stones, count))) return false;
        *game = tg_opening_game(*op);
    } else {
        *game = tg_game_new(c->rule, c->width, c->height);
        if (*game && count) tg_game_set_moves(*game, stones, count, NULL);
    }
    if (*game) return true;
    tg_opening_free(*op);
    *op = NULL;
    return play_report_text(s, EV_ERROR, T_ERR_MEMORY);
}

void play_list_openings(FILE *out) {
    for (int i = 0; i < TG_RENJU_OPENINGS; i++) {
        const TgRenjuOpening *o = tg_renju_opening(i);
        fprintf(out, "%-4s %-10s %-6s %s  %s\n", o->code, o->name, o->chinese, o->moves,
                o->direct ? "direct" : "indirect");
    }
}
