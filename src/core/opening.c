/*
 * opening.c — the opening rules of docs/rules.md §4 as small state machines, and
 * the table of the 26 renju openings (§5).
 *
 * Each rule is a fixed list of stages (place stones, choose, declare N, offer, select) with the
 * colour whose holder acts; a swap only flips which player holds Black. The state is a pure
 * function of the accepted actions, which are logged, so undo is "replay all but the last".
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opening.h"

/* ------------------------------------------------------------------------------------------ */
/* The 26 renju openings                                                                       */
/* ------------------------------------------------------------------------------------------ */

static const TgRenjuOpening OPENINGS[TG_RENJU_OPENINGS] = {
    {"1D", "Kansei", "寒星", "寒星", true, "h8 h9 h10"},
    {"2D", "Keigetsu", "溪月", "渓月", true, "h8 h9 i10"},
    {"3D", "Sosei", "疏星", "疎星", true, "h8 h9 j10"},
    {"4D", "Kagetsu", "花月", "花月", true, "h8 h9 i9"},
    {"5D", "Zangetsu", "残月", "残月", true, "h8 h9 j9"},
    {"6D", "Ugetsu", "雨月", "雨月", true, "h8 h9 i8"},
    {"7D", "Kinsei", "金星", "金星", true, "h8 h9 j8"},
    {"8D", "Shogetsu", "松月", "松月", true, "h8 h9 h7"},
    {"9D", "Kyugetsu", "丘月", "丘月", true, "h8 h9 i7"},
    {"10D", "Shingetsu", "新月", "新月", true, "h8 h9 j7"},
    {"11D", "Zuisei", "瑞星", "瑞星", true, "h8 h9 h6"},
    {"12D", "Sangetsu", "山月", "山月", true, "h8 h9 i6"},
    {"13D", "Yusei", "游星", "遊星", true, "h8 h9 j6"},
    {"1I", "Chosei", "长星", "長星", false, "h8 i9 j10"},
    {"2I", "Kyogetsu", "峡月", "峡月", false, "h8 i9 j9"},
    {"3I", "Kosei", "恒星", "恒星", false, "h8 i9 j8"},
    {"4I", "Suigetsu", "水月", "水月", false, "h8 i9 j7"},
    {"5I", "Ryusei", "流星", "流星", false, "h8 i9 j6"},
    {"6I", "Ungetsu", "云月", "雲月", false, "h8 i9 i8"},
    {"7I", "Hogetsu", "浦月", "浦月", false, "h8 i9 i7"},
    {"8I", "Rangetsu", "岚月", "嵐月", false, "h8 i9 i6"},
    {"9I", "Gingetsu", "银月", "銀月", false, "h8 i9 h7"},
    {"10I", "Myojo", "明星", "明星", false, "h8 i9 h6"},
    {"11I", "Shagetsu", "斜月", "斜月", false, "h8 i9 g7"},
    {"12I", "Meigetsu", "名月", "名月", false, "h8 i9 g6"},
    {"13I", "Suisei", "彗星", "彗星", false, "h8 i9 f6"},
};

const TgRenjuOpening *tg_renju_opening(int index) {
    return index >= 0 && index < TG_RENJU_OPENINGS ? &OPENINGS[index] : NULL;
}

static bool same_ascii_nocase(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
    return *a == *b;
}

int tg_renju_opening_by_name(const char *name) {
    if (!name) return -1;
    for (int i = 0; i < TG_RENJU_OPENINGS; i++) {
        const TgRenjuOpening *o = &OPENINGS[i];
        if (same_ascii_nocase(name, o->code) || same_ascii_nocase(name, o->name) ||
            strcmp(name, o->chinese) == 0 || strcmp(name, o->kanji) == 0)
            return i;
    }
    return -1;
}

TgPoint tg_point_transform(TgPoint p, int size, int symmetry) {
    const int c = (size - 1) / 2;
    int dx = p.x - c, dy = p.y - c;
    if (symmetry & 4) {
        const int t = dx;
        dx = dy, dy = t;
    }
    if (symmetry & 1) dx = -dx;
    if (symmetry & 2) dy = -dy;
    return (TgPoint){c + dx, c + dy};
}

/// The table's placement of opening `index` on a size x size board (centred, untransformed).
static void table_stones(int index, int size, TgPoint stones[3]) {
    TgPoint raw[3];
    int n = 0;
    tg_parse_moves(OPENINGS[index].moves, 15, 15, raw, 3, &n, NULL, 0);
    const int shift = (size - 1) / 2 - 7; /* h8 is (7, 7) on 15x15 */
    for (int k = 0; k < 3; k++) stones[k] = (TgPoint){raw[k].x + shift, raw[k].y + shift};
}

TgError tg_renju_opening_stones(int index, int size, int symmetry, TgPoint stones[3]) {
    if (index < 0 || index >= TG_RENJU_OPENINGS || size < 5 || size > TG_MAX_SIZE ||
        size % 2 == 0 || symmetry < 0 || symmetry > 7)
        return TG_ERR_ARGUMENT;
    table_stones(index, size, stones);
    for (int k = 0; k < 3; k++) stones[k] = tg_point_transform(stones[k], size, symmetry);
    return TG_OK;
}

static bool same_point(TgPoint a, TgPoint b) { return a.x == b.x && a.y == b.y; }

int tg_renju_opening_index(const TgPoint stones[3], int size, int *symmetry) {
    if (size < 5 || size > TG_MAX_SIZE || size % 2 == 0) return -1;
    TgPoint t[3];
    for (int i = 0; i < TG_RENJU_OPENINGS; i++) {
        for (int k = 0; k < 8; k++) {
            tg_renju_opening_stones(i, size, k, t);
            if (same_point(t[0], stones[0]) && same_point(t[1], stones[1]) &&
                same_point(t[2], stones[2])) {
                if (symmetry) *symmetry = k;
                return i;
            }
        }
    }
    return -1;
}

/* ------------------------------------------------------------------------------------------ */
/* Rule names                                                                                  */
/* ------------------------------------------------------------------------------------------ */

static const char *const RULE_NAMES[TG_OPENING_RULE_COUNT] = {
    "none", "swap1", "swap", "swap2", "rif", "yamaguchi", "soosorv8", "taraguchi10"};

const char *tg_opening_rule_name(TgOpeningRule rule) {
    return (unsigned)rule < TG_OPENING_RULE_COUNT ? RULE_NAMES[rule] : "unknown";
}

bool tg_opening_rule_from_name(const char *name, TgOpeningRule *rule) {
    static const struct {
        const char *alias;
        TgOpeningRule rule;
    } aliases[] = {{"soosorv-8", TG_OPENING_SOOSORV8},
                   {"soosorv", TG_OPENING_SOOSORV8},
                   {"taraguchi-10", TG_OPENING_TARAGUCHI10},
                   {"taraguchi", TG_OPENING_TARAGUCHI10},
                   {"free", TG_OPENING_NONE}};
    for (int r = 0; r < TG_OPENING_RULE_COUNT; r++)
        if (same_ascii_nocase(name, RULE_NAMES[r])) return *rule = (TgOpeningRule)r, true;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (same_ascii_nocase(name, aliases[i].alias)) return *rule = aliases[i].rule, true;
    return false;
}

const char *tg_choice_name(TgChoice choice) {
    switch (choice) {
    case TG_CHOICE_STAY: return "stay";
    case TG_CHOICE_SWAP: return "swap";
    case TG_CHOICE_PLACE_TWO: return "place-two";
    case TG_CHOICE_OFFER: return "offer";
    }
    return "?";
}

/* ------------------------------------------------------------------------------------------ */
/* The stages of each rule                                                                     */
/* ------------------------------------------------------------------------------------------ */

/// One stage of a rule. `who` is the colour whose holder acts; `next` follows the stage (for
/// CHOOSE: after STAY or SWAP), `branch` follows PLACE_TWO or OFFER.
typedef struct Stage {
    TgStepKind kind;
    TgColor who;
    int count;        ///< PLACE: stones; OFFER: offers (0: the declared N)
    int area;         ///< PLACE: side of the central square, 0 = anywhere
    unsigned choices; ///< CHOOSE
    int min, max;     ///< DECLARE
    int next, branch;
} Stage;

#define B TG_BLACK
#define W TG_WHITE
#define SS (TG_CHOICE_STAY | TG_CHOICE_SWAP)
#define PLACE(who, n, area, next)                                                                  \
    { TG_STEP_PLACE, who, n, area, 0, 0, 0, next, 0 }
#define CHOOSE(who, choices, next, branch)                                                         \
    { TG_STEP_CHOOSE, who, 0, 0, choices, 0, 0, next, branch }
#define DECLARE(who, lo, hi, next)                                                                 \
    { TG_STEP_DECLARE, who, 0, 0, 0, lo, hi, next, 0 }
#define OFFER(n, next)                                                                             \
    { TG_STEP_OFFER, B, n, 0, 0, 0, 0, next, 0 }
#define SELECT(next)                                                                               \
    { TG_STEP_SELECT, W, 0, 0, 0, 0, 0, next, 0 }
#define DONE                                                                                       \
    { TG_STEP_DONE, W, 0, 0, 0, 0, 0, 0, 0 }

/* Each stage is followed by its index, which the `next` and `branch` fields name. */
static const Stage NONE_STAGES[] = {DONE};
static const Stage SWAP1_STAGES[] = {
    PLACE(B, 1, 0, 1),   /* 0: one black stone anywhere */
    CHOOSE(W, SS, 2, 2), /* 1: the other player picks the colour */
    DONE,                /* 2 */
};
static const Stage SWAP_STAGES[] = {
    PLACE(B, 3, 0, 1),   /* 0: black, white, black anywhere */
    CHOOSE(W, SS, 2, 2), /* 1: the other player picks the colour */
    DONE,                /* 2 */
};
static const Stage SWAP2_STAGES[] = {
    PLACE(B, 3, 0, 1),                         /* 0: player 1: black, white, black */
    CHOOSE(W, SS | TG_CHOICE_PLACE_TWO, 4, 2), /* 1: take White / take Black / two more */
    PLACE(W, 2, 0, 3),                         /* 2: moves 4 and 5 */
    CHOOSE(B, SS, 4, 4),                       /* 3: player 1 picks the colour */
    DONE,                                      /* 4 */
};
static const Stage RIF_STAGES[] = {
    PLACE(B, 1, 1, 1),   /* 0: move 1 on the centre */
    PLACE(B, 1, 3, 2),   /* 1: move 2 in the 3x3 */
    PLACE(B, 1, 5, 3),   /* 2: move 3 in the 5x5: one of the 26 */
    CHOOSE(W, SS, 4, 4), /* 3: swap option */
    PLACE(W, 1, 0, 5),   /* 4: move 4 anywhere */
    OFFER(2, 6),         /* 5: two 5th moves */
    SELECT(7),           /* 6 */
    DONE,                /* 7 */
};
static const Stage YAMAGUCHI_STAGES[] = {
    PLACE(B, 1, 1, 1),                       /* 0 */
    PLACE(B, 1, 3, 2),                       /* 1 */
    PLACE(B, 1, 5, 3),                       /* 2 */
    DECLARE(B, 1, TG_OPENING_MAX_OFFERS, 4), /* 3: the opener declares N */
    CHOOSE(W, SS, 5, 5),                     /* 4: swap option */
    PLACE(W, 1, 0, 6),                       /* 5: move 4 anywhere */
    OFFER(0, 7),                             /* 6: N 5th moves */
    SELECT(8),                               /* 7 */
    DONE,                                    /* 8 */
};
static const Stage SOOSORV8_STAGES[] = {
    PLACE(B, 1, 1, 1),   /* 0 */
    PLACE(B, 1, 3, 2),   /* 1 */
    PLACE(B, 1, 5, 3),   /* 2 */
    CHOOSE(W, SS, 4, 4), /* 3: swap option */
    PLACE(W, 1, 0, 5),   /* 4: move 4 anywhere */
    DECLARE(W, 1, 8, 6), /* 5: ... with N declared */
    CHOOSE(B, SS, 7, 7), /* 6: swap option */
    OFFER(0, 8),         /* 7: N 5th moves */
    SELECT(9),           /* 8 */
    DONE,                /* 9 */
};
static const Stage TARAGUCHI10_STAGES[] = {
    PLACE(B, 1, 1, 1),                      /* 0: move 1 on the centre */
    CHOOSE(W, SS, 2, 2),                    /* 1: swap option */
    PLACE(W, 1, 3, 3),                      /* 2: move 2 in the 3x3 */
    CHOOSE(B, SS, 4, 4),                    /* 3 */
    PLACE(B, 1, 5, 5),                      /* 4: move 3 in the 5x5 */
    CHOOSE(W, SS, 6, 6),                    /* 5 */
    PLACE(W, 1, 7, 7),                      /* 6: move 4 in the 7x7 */
    CHOOSE(B, SS | TG_CHOICE_OFFER, 8, 10), /* 7: Black: choice 1 (swap option, then move 5) */
                                            /*    or choice 2 (ten offers) */
    PLACE(B, 1, 9, 9),                      /* 8: move 5 in the 9x9 */
    CHOOSE(W, SS, 12, 12),                  /* 9: swap option */
    OFFER(10, 11),                          /* 10: ten 5th moves anywhere */
    SELECT(12),                             /* 11 */
    DONE,                                   /* 12 */
};

static const Stage *const STAGES[TG_OPENING_RULE_COUNT] = {
    NONE_STAGES, SWAP1_STAGES,     SWAP_STAGES,     SWAP2_STAGES,
    RIF_STAGES,  YAMAGUCHI_STAGES, SOOSORV8_STAGES, TARAGUCHI10_STAGES};

#undef B
#undef W
#undef SS
#undef PLACE
#undef CHOOSE
#undef DECLARE
#undef OFFER
#undef SELECT
#undef DONE

/// The widest central square a rule uses (the board must hold it).
static int widest_area(TgOpeningRule rule) {
    switch (rule) {
    case TG_OPENING_RIF:
    case TG_OPENING_YAMAGUCHI:
    case TG_OPENING_SOOSORV8: return 5;
    case TG_OPENING_TARAGUCHI10: return 9;
    default: return 0;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* State                                                                                       */
/* ------------------------------------------------------------------------------------------ */

enum { MAX_ACTIONS = 48, WHY_SIZE = 160 };

typedef struct Action {
    TgStepKind kind;
    TgPoint p;
    int value; ///< CHOOSE: the choice; DECLARE: N
} Action;

struct TgOpening {
    TgOpeningRule orule;
    TgRule rule;
    int size;
    int stage;      ///< index into STAGES[orule]
    int stage_done; ///< stones placed in the current PLACE stage
    TgPlayer black; ///< who holds Black now
    int declared;   ///< N, once declared
    int stone_count;
    TgPoint stones[TG_OPENING_MAX_STONES];
    int offer_count;
    TgPoint offers[TG_OPENING_MAX_OFFERS];
    int action_count;
    Action actions[MAX_ACTIONS];
    char why[WHY_SIZE];
};

static const Stage *stage_of(const TgOpening *op) { return &STAGES[op->orule][op->stage]; }

static TgPlayer holder(const TgOpening *op, TgColor c) {
    return c == TG_BLACK ? op->black : (TgPlayer)(1 - op->black);
}

static void reset(TgOpening *op) {
    const TgOpeningRule orule = op->orule;
    const TgRule rule = op->rule;
    const int size = op->size;
    memset(op, 0, sizeof *op);
    op->orule = orule, op->rule = rule, op->size = size;
    op->black = TG_PLAYER_1;
}

TgOpening *tg_opening_new(TgOpeningRule orule, TgRule rule, int size) {
    if ((unsigned)orule >= TG_OPENING_RULE_COUNT || (unsigned)rule >= TG_RULE_COUNT ||
        size < TG_MIN_SIZE || size > TG_MAX_SIZE)
        return NULL;
    const int area = widest_area(orule);
    if (area && (size % 2 == 0 || size < area)) return NULL; /* needs a centre point */
    TgOpening *op = malloc(sizeof *op);
    if (!op) return NULL;
    op->orule = orule, op->rule = rule, op->size = size;
    reset(op);
    return op;
}

void tg_opening_free(TgOpening *op) { free(op); }

TgOpening *tg_opening_clone(const TgOpening *op) {
    TgOpening *c = malloc(sizeof *c);
    if (c) memcpy(c, op, sizeof *c);
    return c;
}

TgOpeningRule tg_opening_rule(const TgOpening *op) { return op->orule; }
TgRule tg_opening_game_rule(const TgOpening *op) { return op->rule; }
int tg_opening_size(const TgOpening *op) { return op->size; }
bool tg_opening_done(const TgOpening *op) { return stage_of(op)->kind == TG_STEP_DONE; }
const char *tg_opening_why(const TgOpening *op) { return op->why; }
int tg_opening_declared(const TgOpening *op) { return op->declared; }

TgColor tg_opening_color_of(const TgOpening *op, TgPlayer player) {
    return player == op->black ? TG_BLACK : TG_WHITE;
}

TgPlayer tg_opening_player_of(const TgOpening *op, TgColor color) { return holder(op, color); }

static int copy_points(const TgPoint *from, int n, TgPoint *out, int max) {
    for (int i = 0; i < n && i < max; i++) out[i] = from[i];
    return n;
}

int tg_opening_stones(const TgOpening *op, TgPoint *out, int max) {
    return copy_points(op->stones, op->stone_count, out, max);
}

int tg_opening_offers(const TgOpening *op, TgPoint *out, int max) {
    return copy_points(op->offers, op->offer_count, out, max);
}

int tg_opening_renju_index(const TgOpening *op) {
    return op->stone_count >= 3 ? tg_renju_opening_index(op->stones, op->size, NULL) : -1;
}

static TgColor next_stone_color(const TgOpening *op) {
    return op->stone_count % 2 ? TG_WHITE : TG_BLACK;
}

/// Offers still to make in an OFFER stage.
static int offers_wanted(const TgOpening *op, const Stage *s) {
    return s->count ? s->count : op->declared;
}

/// Stones the acting player places in a row from the current PLACE stage on.
static int place_run(const TgOpening *op) {
    const Stage *all = STAGES[op->orule], *s = stage_of(op);
    int n = s->count - op->stage_done;
    for (const Stage *t = &all[s->next]; t->kind == TG_STEP_PLACE && t->who == s->who;
         t = &all[t->next])
        n += t->count;
    return n;
}

TgOpeningStep tg_opening_step(const TgOpening *op) {
    const Stage *s = stage_of(op);
    TgOpeningStep st = {.kind = s->kind, .player = holder(op, s->who)};
    if (s->kind == TG_STEP_DONE) st.player = holder(op, next_stone_color(op));
    st.color = tg_opening_color_of(op, st.player);
    switch (s->kind) {
    case TG_STEP_PLACE:
        st.color = next_stone_color(op);
        st.count = place_run(op);
        st.area = s->area;
        break;
    case TG_STEP_CHOOSE: st.choices = s->choices; break;
    case TG_STEP_DECLARE: st.min = s->min, st.max = s->max; break;
    case TG_STEP_OFFER: st.count = offers_wanted(op, s) - op->offer_count; break;
    default: break;
    }
    return st;
}

/* ------------------------------------------------------------------------------------------ */
/* Checks                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static TgError refuse(TgOpening *op, TgError err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static TgError refuse(TgOpening *op, TgError err, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(op->why, sizeof op->why, fmt, ap);
    va_end(ap);
    return err;
}

static void name_point(const TgOpening *op, TgPoint p, char *buf, size_t size) {
    if (tg_point_to_text(p, op->size, op->size, buf, size) != TG_OK) snprintf(buf, size, "?");
}

static const char *const STEP_WORDS[] = {"placing a stone",    "a choice",
                                         "declaring a number", "offering a 5th move",
                                         "selecting an offer", "nothing (the opening is over)"};

static TgError wrong_step(TgOpening *op, TgStepKind wanted) {
    return refuse(op, TG_ERR_ARGUMENT, "the opening asks for %s, not %s",
                  STEP_WORDS[stage_of(op)->kind], STEP_WORDS[wanted]);
}

static bool is_taken(const TgOpening *op, TgPoint p) {
    for (int i = 0; i < op->stone_count; i++)
        if (same_point(op->stones[i], p)) return true;
    return false;
}

/// A point for a new stone: a real, empty point on the board.
static TgError check_point(TgOpening *op, TgPoint p) {
    char name[16];
    if (tg_point_is_pass(p)) return refuse(op, TG_ERR_PASS, "no pass during the opening");
    if (p.x < 0 || p.y < 0 || p.x >= op->size || p.y >= op->size)
        return refuse(op, TG_ERR_OFF_BOARD, "the point is not on the board");
    name_point(op, p, name, sizeof name);
    if (is_taken(op, p)) return refuse(op, TG_ERR_OCCUPIED, "%s is already taken", name);
    return TG_OK;
}

static bool in_area(const TgOpening *op, TgPoint p, int area) {
    const int c = (op->size - 1) / 2, r = area / 2;
    return !area || (abs(p.x - c) <= r && abs(p.y - c) <= r);
}

/// Does board symmetry k map the stones onto themselves, colour by colour?
static bool keeps_stones(const TgPoint *stones, int count, int size, int k) {
    for (int i = 0; i < count; i++) {
        const TgPoint t = tg_point_transform(stones[i], size, k);
        bool found = false;
        for (int j = i % 2; j < count && !found; j += 2) found = same_point(stones[j], t);
        if (!found) return false;
    }
    return true;
}

bool opening_symmetric(const TgPoint *stones, int count, int size, TgPoint a, TgPoint b) {
    for (int k = 0; k < 8; k++)
        if ((k == 0 || keeps_stones(stones, count, size, k)) &&
            same_point(tg_point_transform(a, size, k), b))
            return true;
    return false;
}

/// The earlier offer that `p` equals or mirrors under a symmetry of the position, or -1.
static int symmetric_offer(const TgOpening *op, TgPoint p) {
    for (int i = 0; i < op->offer_count; i++)
        if (opening_symmetric(op->stones, op->stone_count, op->size, p, op->offers[i])) return i;
    return -1;
}

bool opening_swap_follows(const TgOpening *op) {
    const Stage *all = STAGES[op->orule], *s = stage_of(op);
    while (s->kind == TG_STEP_PLACE) s = &all[s->next];
    while (s->kind == TG_STEP_DECLARE) s = &all[s->next];
    return s->kind == TG_STEP_CHOOSE && (s->choices & TG_CHOICE_SWAP);
}

/* ------------------------------------------------------------------------------------------ */
/* Actions                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static void log_action(TgOpening *op, TgStepKind kind, TgPoint p, int value) {
    if (op->action_count < MAX_ACTIONS) op->actions[op->action_count++] = (Action){kind, p, value};
    op->why[0] = '\0';
}

static void advance(TgOpening *op, int stage) {
    op->stage = stage;
    op->stage_done = 0;
}

TgError tg_opening_place(TgOpening *op, TgPoint p) {
    const Stage *s = stage_of(op);
    if (s->kind != TG_STEP_PLACE) return wrong_step(op, TG_STEP_PLACE);
    const TgError e = check_point(op, p);
    if (e != TG_OK) return e;
    if (!in_area(op, p, s->area)) {
        char name[16];
        name_point(op, p, name, sizeof name);
        if (s->area == 1) return refuse(op, TG_ERR_ARGUMENT, "move 1 goes on the centre point");
        return refuse(op, TG_ERR_ARGUMENT, "%s is outside the central %dx%d square", name, s->area,
                      s->area);
    }
    op->stones[op->stone_count++] = p;
    log_action(op, TG_STEP_PLACE, p, 0);
    if (++op->stage_done == s->count) advance(op, s->next);
    return TG_OK;
}

TgError tg_opening_choose(TgOpening *op, TgChoice choice) {
    const Stage *s = stage_of(op);
    if (s->kind != TG_STEP_CHOOSE) return wrong_step(op, TG_STEP_CHOOSE);
    if (!(s->choices & (unsigned)choice) || (choice & (choice - 1)))
        return refuse(op, TG_ERR_ARGUMENT, "\"%s\" is not one of the choices here",
                      tg_choice_name(choice));
    if (choice == TG_CHOICE_SWAP) op->black = (TgPlayer)(1 - op->black);
    log_action(op, TG_STEP_CHOOSE, (TgPoint){-1, -1}, (int)choice);
    advance(op, choice == TG_CHOICE_STAY || choice == TG_CHOICE_SWAP ? s->next : s->branch);
    return TG_OK;
}

TgError tg_opening_declare(TgOpening *op, int n) {
    const Stage *s = stage_of(op);
    if (s->kind != TG_STEP_DECLARE) return wrong_step(op, TG_STEP_DECLARE);
    if (n < s->min || n > s->max)
        return refuse(op, TG_ERR_ARGUMENT, "the number of 5th moves must be %d to %d, not %d",
                      s->min, s->max, n);
    op->declared = n;
    log_action(op, TG_STEP_DECLARE, (TgPoint){-1, -1}, n);
    advance(op, s->next);
    return TG_OK;
}

TgError tg_opening_offer(TgOpening *op, TgPoint p) {
    const Stage *s = stage_of(op);
    if (s->kind != TG_STEP_OFFER) return wrong_step(op, TG_STEP_OFFER);
    const TgError e = check_point(op, p);
    if (e != TG_OK) return e;
    const int twin = symmetric_offer(op, p);
    if (twin >= 0) {
        char a[16], b[16];
        name_point(op, p, a, sizeof a);
        name_point(op, op->offers[twin], b, sizeof b);
        if (same_point(p, op->offers[twin]))
            return refuse(op, TG_ERR_ARGUMENT, "%s is already offered", a);
        return refuse(op, TG_ERR_ARGUMENT, "%s is symmetric to the offer %s", a, b);
    }
    op->offers[op->offer_count++] = p;
    log_action(op, TG_STEP_OFFER, p, 0);
    if (op->offer_count == offers_wanted(op, s)) advance(op, s->next);
    return TG_OK;
}

TgError tg_opening_select(TgOpening *op, TgPoint p) {
    const Stage *s = stage_of(op);
    if (s->kind != TG_STEP_SELECT) return wrong_step(op, TG_STEP_SELECT);
    for (int i = 0; i < op->offer_count; i++) {
        if (!same_point(op->offers[i], p)) continue;
        op->stones[op->stone_count++] = p;
        log_action(op, TG_STEP_SELECT, p, 0);
        advance(op, s->next);
        return TG_OK;
    }
    char name[16] = "pass";
    if (!tg_point_is_pass(p)) name_point(op, p, name, sizeof name);
    return refuse(op, TG_ERR_ARGUMENT, "%s is not one of the offered 5th moves", name);
}

static TgError replay(TgOpening *op, const Action *a) {
    switch (a->kind) {
    case TG_STEP_PLACE: return tg_opening_place(op, a->p);
    case TG_STEP_CHOOSE: return tg_opening_choose(op, (TgChoice)a->value);
    case TG_STEP_DECLARE: return tg_opening_declare(op, a->value);
    case TG_STEP_OFFER: return tg_opening_offer(op, a->p);
    case TG_STEP_SELECT: return tg_opening_select(op, a->p);
    default: return TG_ERR_ARGUMENT;
    }
}

TgError tg_opening_undo(TgOpening *op) {
    if (op->action_count == 0) return refuse(op, TG_ERR_NOTHING, "nothing to take back");
    Action saved[MAX_ACTIONS];
    const int n = op->action_count - 1;
    memcpy(saved, op->actions, sizeof(Action) * (size_t)n);
    reset(op);
    for (int i = 0; i < n; i++) replay(op, &saved[i]);
    return TG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Text and games                                                                              */
/* ------------------------------------------------------------------------------------------ */

size_t tg_opening_text(const TgOpening *op, char *buf, size_t size) {
    size_t n = (size_t)snprintf(buf, size, "%s", tg_opening_rule_name(op->orule));
    for (int i = 0; i < op->action_count; i++) {
        const Action *a = &op->actions[i];
        char word[24];
        if (a->kind == TG_STEP_CHOOSE)
            snprintf(word, sizeof word, "%s", tg_choice_name(a->value));
        else if (a->kind == TG_STEP_DECLARE)
            snprintf(word, sizeof word, "%d", a->value);
        else
            name_point(op, a->p, word, sizeof word);
        n += (size_t)snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, " %s", word);
    }
    return n;
}

/// Applies one token of an opening line: a point, a choice word or a number, as the step asks.
static TgError apply_token(TgOpening *op, const char *tok) {
    const TgStepKind kind = stage_of(op)->kind;
    if (kind == TG_STEP_CHOOSE) {
        for (unsigned c = 1; c <= TG_CHOICE_OFFER; c <<= 1)
            if (strcmp(tok, tg_choice_name((TgChoice)c)) == 0)
                return tg_opening_choose(op, (TgChoice)c);
        return refuse(op, TG_ERR_PARSE, "\"%s\" is not a choice", tok);
    }
    if (kind == TG_STEP_DECLARE) {
        char *end;
        const long n = strtol(tok, &end, 10);
        if (*end || n < 0 || n > 1000)
            return refuse(op, TG_ERR_PARSE, "\"%s\" is not a number", tok);
        return tg_opening_declare(op, (int)n);
    }
    TgPoint p;
    if (tg_point_from_text(tok, op->size, op->size, &p) != TG_OK)
        return refuse(op, TG_ERR_PARSE, "\"%s\" is not a point", tok);
    if (kind == TG_STEP_OFFER) return tg_opening_offer(op, p);
    if (kind == TG_STEP_SELECT) return tg_opening_select(op, p);
    return tg_opening_place(op, p);
}

TgOpening *tg_opening_from_text(const char *text, TgRule rule, int size, char *err,
                                size_t err_size) {
    char copy[1024], *save = NULL;
    snprintf(copy, sizeof copy, "%s", text ? text : "");
    const char *word = strtok_r(copy, " \t\r\n,", &save);
    TgOpeningRule orule;
    if (!word || !tg_opening_rule_from_name(word, &orule)) {
        if (err) snprintf(err, err_size, "the line does not start with an opening rule");
        return NULL;
    }
    TgOpening *op = tg_opening_new(orule, rule, size);
    if (!op) {
        if (err)
            snprintf(err, err_size, "the opening rule %s cannot be played on this board", word);
        return NULL;
    }
    for (char *tok; (tok = strtok_r(NULL, " \t\r\n,", &save));) {
        if (apply_token(op, tok) != TG_OK) {
            if (err) snprintf(err, err_size, "at \"%s\": %s", tok, op->why);
            tg_opening_free(op);
            return NULL;
        }
    }
    return op;
}

TgGame *tg_opening_game(const TgOpening *op) {
    TgGame *g = tg_game_new(op->rule, op->size, op->size);
    if (!g) return NULL;
    if (tg_game_set_moves(g, op->stones, op->stone_count, NULL) != TG_OK)
        tg_game_setup(g, op->stones, op->stone_count, NULL);
    if (op->orule != TG_OPENING_NONE) {
        char text[512];
        tg_opening_text(op, text, sizeof text);
        tg_game_set_info(g, "opening", text);
    }
    return g;
}

static const char *player_word(TgPlayer p) { return p == TG_PLAYER_1 ? "Player 1" : "Player 2"; }

static size_t choose_text(const TgOpening *op, const TgOpeningStep *st, char *buf, size_t size) {
    const TgColor other = st->color == TG_BLACK ? TG_WHITE : TG_BLACK;
    const char *extra = st->choices & TG_CHOICE_PLACE_TWO ? ", or place two more stones"
                        : st->choices & TG_CHOICE_OFFER   ? ", or offer ten 5th moves"
                                                          : "";
    (void)op;
    return (size_t)snprintf(buf, size, "%s (%s): stay %s or swap to %s%s", player_word(st->player),
                            tg_color_name(st->color), tg_color_name(st->color),
                            tg_color_name(other), extra);
}

size_t tg_opening_step_text(const TgOpening *op, char *buf, size_t size) {
    const TgOpeningStep st = tg_opening_step(op);
    const char *who = player_word(st.player);
    switch (st.kind) {
    case TG_STEP_PLACE:
        if (st.area > 1)
            return (size_t)snprintf(buf, size, "%s: place a %s stone in the central %dx%d square",
                                    who, tg_color_name(st.color), st.area, st.area);
        return (size_t)snprintf(buf, size, "%s: place a %s stone%s", who, tg_color_name(st.color),
                                st.area == 1 ? " on the centre point" : "");
    case TG_STEP_CHOOSE: return choose_text(op, &st, buf, size);
    case TG_STEP_DECLARE:
        return (size_t)snprintf(buf, size, "%s (%s): declare the number of 5th moves (%d-%d)", who,
                                tg_color_name(st.color), st.min, st.max);
    case TG_STEP_OFFER:
        return (size_t)snprintf(buf, size, "%s (black): offer a 5th move (%d more)", who, st.count);
    case TG_STEP_SELECT:
        return (size_t)snprintf(buf, size, "%s (white): select one of the offered 5th moves", who);
    default:
        return (size_t)snprintf(buf, size, "The opening is over: %s (%s) to move", who,
                                tg_color_name(st.color));
    }
}
