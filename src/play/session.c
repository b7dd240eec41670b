/*
 * session.c — what the session (model.c) and its opening phase (opening.c) both build on: the
 * messages the views drain, the points and lines as text, the version bump after a change,
 * which player holds a colour, the players' names in the record, and the clock.
 */
#include <stdio.h>

#include "play.h"

/* ---- Messages ---- */

static void push_event(PlaySession *s, PlayEventKind kind, const char *text) {
    if (s->event_count == PLAY_EVENTS) { /* the views drain often; drop the oldest */
        s->event_first = (s->event_first + 1) % PLAY_EVENTS;
        s->event_count--;
    }
    PlayEvent *e = &s->events[(s->event_first + s->event_count++) % PLAY_EVENTS];
    e->kind = kind;
    /* Long texts are cut to fit (the precision says so, for the compiler too). */
    snprintf(e->text, sizeof e->text, "%.*s", (int)sizeof e->text - 1, text);
    if (!*text) return;
    snprintf(s->status, sizeof s->status, "%.*s", (int)sizeof s->status - 1, text);
    s->status_error = kind == EV_ERROR;
}

bool play_tell(PlaySession *s, PlayEventKind kind, TextId id, const char *a, const char *b,
               const char *c, const char *d) {
    char text[sizeof s->events[0].text];
    play_fill(text, sizeof text, play_text(s->cfg.lang, id), a, b, c, d, (const char *)NULL);
    push_event(s, kind, text);
    return kind != EV_ERROR;
}

bool play_say(PlaySession *s, PlayEventKind kind, TextId id, const char *a, const char *b) {
    return play_tell(s, kind, id, a, b, NULL, NULL);
}

bool play_next_event(PlaySession *s, PlayEvent *ev) {
    if (s->event_count == 0) return false;
    *ev = s->events[s->event_first];
    s->event_first = (s->event_first + 1) % PLAY_EVENTS;
    s->event_count--;
    return true;
}

bool play_report(PlaySession *s, PlayEventKind kind, const char *text) {
    push_event(s, kind, text);
    return kind != EV_ERROR;
}

bool play_report_text(PlaySession *s, PlayEventKind kind, TextId id) {
    return play_tell(s, kind, id, NULL, NULL, NULL, NULL);
}

/* ---- Texts ---- */

void play_point_text(const PlaySession *s, TgPoint p, char *buf, size_t size) {
    if (tg_point_to_text(p, tg_game_width(s->game), tg_game_height(s->game), buf, size) != TG_OK)
        snprintf(buf, size, "?");
}

void play_line_text(const PlaySession *s, const TgPoint *moves, int count, char *buf, size_t size) {
    tg_format_moves(moves, count, tg_game_width(s->game), tg_game_height(s->game), " ", buf, size);
}

/* ---- State ---- */

/// Something changed: older search results and hints no longer apply.
void play_changed(PlaySession *s) {
    s->version++;
    s->has_hint = false;
}

PlaySide play_side_of(const PlaySession *s, TgColor c) {
    if (!s->opening) return s->cfg.side[c == TG_WHITE];
    return s->cfg.side[tg_opening_player_of(s->opening, c)];
}

void play_name_players(PlaySession *s) {
    for (int c = 0; c < 2; c++) {
        char name[64];
        const PlaySide side = play_side_of(s, (TgColor)c);
        if (side.computer)
            snprintf(name, sizeof name, "tengen %s", tg_level_name(side.level));
        else
            snprintf(name, sizeof name, "human");
        tg_game_set_info(s->game, c == TG_BLACK ? "black" : "white", name);
    }
}

/// Runs the game's clock when the game has one and it should run now.
void play_sync_clock(PlaySession *s) {
    const TgClock c = tg_game_clock(s->game);
    if (!c.game_ms && !c.move_ms) return;
    if (s->paused || s->replay || tg_game_over(s->game))
        tg_game_clock_pause(s->game, tg_now_ms());
    else
        tg_game_clock_start(s->game, tg_now_ms());
}

void play_start_clock(PlaySession *s) {
    const TgClock c = s->cfg.clock;
    if (!c.game_ms && !c.move_ms) return;
    tg_game_set_clock(s->game, c);
    play_sync_clock(s);
}
