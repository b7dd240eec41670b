/*
 * record_sgf.c — SGF FF[4] GM[4] records (formats.md §5; https://www.red-bean.com/sgf/).
 *
 * The reader checks the syntax of the whole collection but plays only the main line: the first
 * game tree and, at every branching, the first variation. It is a loop over tokens with a depth
 * counter rather than a recursive descent, so deep nesting cannot exhaust the stack.
 * Points are two letters from the top-left ("hh" = h8 on 15x15). B[] is a pass, and so is
 * B[tt] (RenLib's pass) wherever "tt" cannot be a point: unless both sides are 20 or more.
 * Setup stones (AB, AW, AE) are refused: a tengen game is a sequence of moves.
 * RE is judged against the board once the moves are played. When the moves end the game (five,
 * foul, full board, two passes) RE must name the same winner, else the record is refused; when
 * they do not, RE sets the result, a bare "B+" or a forfeit "B+F" counting as a resignation.
 */
#include "record.h"
#include "record_formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const TgPoint PASS = {-1, -1};

/* ---- Parser state ---- */

typedef enum SgfState {
    SGF_TOP,         ///< between game trees
    SGF_OPENED,      ///< just after '(' : a node must follow
    SGF_IN_NODE,     ///< after ';' or a property
    SGF_AFTER_CHILD, ///< after a variation closed: only '(' or ')' may follow
} SgfState;

/// The properties tengen reads; the rest are skipped (after their syntax is checked).
typedef enum SgfProp {
    PROP_B,
    PROP_W,
    PROP_SZ,
    PROP_RU,
    PROP_GM,
    PROP_RE,
    PROP_PB,
    PROP_PW,
    PROP_DT,
    PROP_EV,
    PROP_C,
    PROP_AB,
    PROP_AW,
    PROP_AE,
    PROP_OPENING, ///< tengen's own: the opening phase, as tg_opening_text() writes it
    PROP_OTHER
} SgfProp;

static const char *const PROP_IDS[PROP_OTHER] = {"B",  "W",  "SZ", "RU", "GM", "RE", "PB",     "PW",
                                                 "DT", "EV", "C",  "AB", "AW", "AE", "OPENING"};

enum { SGF_ID_MAX = 16 };

typedef struct Sgf {
    const char *p, *end;
    int line;
    SgfState state;
    int depth;      ///< open '(' now
    int main_depth; ///< depth of the deepest main-line tree entered so far
    bool main_done; ///< the main line's last tree has closed
    bool seen_tree;
    bool in_main; ///< the node being read lies on the main line
    bool node_has_move;
    int main_nodes; ///< main-line nodes so far (1 = the root)
    unsigned seen;  ///< bit per SgfProp met on the main line, for the once-only ones
    int size_arg;   ///< tg_record_read's size: the board when SZ is absent
    bool size_set;
    RecordDraft *draft;
    char id[SGF_ID_MAX]; ///< the property being read
    SgfProp prop;
    char *value; ///< its current value, unescaped and NUL-terminated
    size_t value_len, value_cap;
    int value_line;
    char *result; ///< RE as written, judged after the moves
    int result_line;
} Sgf;

static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_id_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static void skip_space(Sgf *s) {
    for (; s->p < s->end && is_space(*s->p); s->p++) s->line += *s->p == '\n';
}

/* ---- Board size and rule ---- */

/// The board is fixed by SZ, or by the first move (then from the caller's size, or 15).
static void settle_size(Sgf *s) {
    if (s->size_set) return;
    int n = s->size_arg ? s->size_arg : RECORD_DEFAULT_SIZE;
    s->draft->width = s->draft->height = n;
    s->size_set = true;
}

static bool read_size(Sgf *s, RecordError *e) {
    char shown[RECORD_TEXT_MAX];
    record_excerpt(s->value, s->value_len, shown, sizeof shown);
    if (s->size_set) return record_fail(e, "line %d: SZ comes after the first move", s->value_line);
    Cursor c = {s->value, s->value + s->value_len};
    int64_t w = 0, h = 0;
    NumberScan sw = cursor_number(&c, TG_MAX_SIZE, &w), sh = sw;
    h = w;
    if (cursor_take(&c, ':')) sh = cursor_number(&c, TG_MAX_SIZE, &h);
    if (sw == NUMBER_NONE || sh == NUMBER_NONE || !cursor_done(&c))
        return record_fail(e, "line %d: bad board size SZ[%s]", s->value_line, shown);
    if (sw == NUMBER_TOO_BIG || sh == NUMBER_TOO_BIG || w < TG_MIN_SIZE || h < TG_MIN_SIZE)
        return record_fail(e, "line %d: SZ[%s] is out of range (%d..%d)", s->value_line, shown,
                           TG_MIN_SIZE, TG_MAX_SIZE);
    s->draft->width = (int)w;
    s->draft->height = (int)h;
    s->size_set = true;
    return true;
}

/// RU values seen in the wild besides tengen's own rule names, in any case, and piskvork's rule
/// codes, which c-gomoku-cli writes.
static bool rule_from_sgf(const char *value, TgRule *rule) {
    static const struct {
        const char *name;
        TgRule rule;
    } NAMES[] = {{"freestyle", TG_FREESTYLE}, {"gomoku", TG_FREESTYLE}, {"free", TG_FREESTYLE},
                 {"standard", TG_STANDARD},   {"exact5", TG_STANDARD},  {"renju", TG_RENJU},
                 {"rif", TG_RENJU},           {"caro8", TG_CARO8},      {"caro9", TG_CARO9},
                 {"caro", TG_CARO9}};
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++) {
        if (!record_same_word(value, NAMES[i].name)) continue;
        *rule = NAMES[i].rule;
        return true;
    }
    if (value[0] >= '0' && value[0] <= '9' && value[1] == '\0')
        return tg_rule_from_code(value[0] - '0', rule);
    return tg_rule_from_name(value, rule); /* any rule tengen names that the table lacks */
}

static bool read_rule(Sgf *s, RecordError *e) {
    if (rule_from_sgf(s->value, &s->draft->rule)) return true;
    char shown[RECORD_TEXT_MAX];
    record_excerpt(s->value, s->value_len, shown, sizeof shown);
    return record_fail(e, "line %d: unknown rule RU[%s]", s->value_line, shown);
}

/* ---- Moves ---- */

static int sgf_letter(char c) {
    return c >= 'a' && c <= 'z' ? c - 'a' : c >= 'A' && c <= 'Z' ? c - 'A' + 26 : -1;
}

/// The value as a point; off-board letters are refused later, when the move is played.
static bool value_point(const Sgf *s, TgPoint *p) {
    const char *v = s->value;
    bool tt = s->value_len == 2 && v[0] == 't' && v[1] == 't';
    if (s->value_len == 0 || (tt && (s->draft->width < 20 || s->draft->height < 20))) {
        *p = PASS;
        return true;
    }
    if (s->value_len != 2 || sgf_letter(v[0]) < 0 || sgf_letter(v[1]) < 0) return false;
    *p = (TgPoint){sgf_letter(v[0]), sgf_letter(v[1])};
    return true;
}

static bool read_move(Sgf *s, TgColor color, RecordError *e) {
    RecordDraft *d = s->draft;
    char shown[RECORD_TEXT_MAX - 4], text[RECORD_TEXT_MAX];
    record_excerpt(s->value, s->value_len, shown, sizeof shown);
    snprintf(text, sizeof text, "%c[%s]", color == TG_BLACK ? 'B' : 'W', shown);
    if (s->node_has_move)
        return record_fail(e, "line %d: a second move %s in one node", s->value_line, text);
    settle_size(s);
    TgColor to_move = d->count % 2 ? TG_WHITE : TG_BLACK;
    TgPoint p;
    if (color != to_move)
        return record_fail(e, "line %d: move %d %s, but %s is to move", s->value_line, d->count + 1,
                           text, tg_color_name(to_move));
    if (!value_point(s, &p))
        return record_fail(e, "line %d: bad move %s (two letters, or [] for a pass)", s->value_line,
                           text);
    s->node_has_move = true;
    return record_draft_add(d, p, 0, s->value_line, text, strlen(text), e);
}

/* ---- Game info and result ---- */

/// SimpleText (PB, PW, DT, EV): line breaks read as spaces.
static bool read_simple_text(Sgf *s, RecordInfo key, RecordError *e) {
    for (size_t i = 0; i < s->value_len; i++)
        if (s->value[i] == '\n' || s->value[i] == '\r') s->value[i] = ' ';
    return record_draft_info(s->draft, key, s->value, s->value_len, e);
}

/// Keeps RE's value, without the blanks around it, to be judged once the moves are played.
static bool keep_result(Sgf *s, RecordError *e) {
    const char *v = s->value;
    size_t n = s->value_len;
    for (; n && is_space(*v); v++) n--;
    while (n && is_space(v[n - 1])) n--;
    s->result = malloc(n + 1);
    if (!s->result) return record_fail(e, "out of memory");
    memcpy(s->result, v, n);
    s->result[n] = '\0';
    s->result_line = s->value_line;
    return true;
}

/// What RE states: known = false for "?", "Void" or nothing.
typedef struct Stated {
    bool known;
    TgReason reason; ///< the result to set when the board has none
    TgColor winner;
} Stated;

/// "B+"'s tail: "", a score, R/Resign, T/Time, F/Forfeit.
static bool win_reason(const char *how, TgReason *reason) {
    bool score = *how != '\0';
    for (const char *c = how; *c; c++) score = score && ((*c >= '0' && *c <= '9') || *c == '.');
    if (!*how || score || record_same_word(how, "r") || record_same_word(how, "resign") ||
        record_same_word(how, "f") || record_same_word(how, "forfeit")) {
        *reason = TG_REASON_RESIGN;
        return true;
    }
    *reason = TG_REASON_TIME;
    return record_same_word(how, "t") || record_same_word(how, "time");
}

static bool parse_result(const char *v, Stated *r) {
    *r = (Stated){.known = false, .reason = TG_REASON_NONE, .winner = TG_NOBODY};
    if (!*v || strcmp(v, "?") == 0 || record_same_word(v, "void")) return true;
    r->known = true;
    if (strcmp(v, "0") == 0 || record_same_word(v, "draw")) {
        r->reason = TG_REASON_AGREEMENT;
        return true;
    }
    if ((v[0] != 'B' && v[0] != 'W') || v[1] != '+') return false;
    r->winner = v[0] == 'B' ? TG_BLACK : TG_WHITE;
    return win_reason(v + 2, &r->reason);
}

static bool judge_result(const Sgf *s, TgGame *g, RecordError *e) {
    if (!s->result) return true;
    char shown[RECORD_TEXT_MAX];
    record_excerpt(s->result, strlen(s->result), shown, sizeof shown);
    Stated r;
    if (!parse_result(s->result, &r))
        return record_fail(e, "line %d: unknown result RE[%s]", s->result_line, shown);
    if (!r.known) return true;
    TgResult board = tg_game_result(g);
    if (board.reason == TG_REASON_NONE) {
        tg_game_set_result(g, (TgResult){.reason = r.reason, .winner = r.winner});
        return true;
    }
    if (board.winner == r.winner) return true; /* the board's account is the more precise */
    if (board.winner == TG_NOBODY)
        return record_fail(e, "line %d: RE[%s] contradicts the board (a draw: %s)", s->result_line,
                           shown, tg_reason_name(board.reason));
    return record_fail(e, "line %d: RE[%s] contradicts the board (%s won: %s)", s->result_line,
                       shown, tg_color_name(board.winner), tg_reason_name(board.reason));
}

/* ---- Properties ---- */

static SgfProp prop_from_id(const char *id) {
    for (int i = 0; i < PROP_OTHER; i++)
        if (strcmp(id, PROP_IDS[i]) == 0) return (SgfProp)i;
    return PROP_OTHER;
}

/// Properties that may appear once on the main line.
static bool once_only(SgfProp prop) { return prop != PROP_B && prop != PROP_W && prop != PROP_C; }

static bool main_property(Sgf *s, int index, RecordError *e) {
    SgfProp prop = s->prop;
    if (prop == PROP_OTHER) return true;
    if (index > 0)
        return record_fail(e, "line %d: %s has more than one value", s->value_line, s->id);
    if (once_only(prop) && (s->seen & (1u << prop)))
        return record_fail(e, "line %d: %s given twice", s->value_line, s->id);
    s->seen |= 1u << prop;
    switch (prop) {
    case PROP_B: return read_move(s, TG_BLACK, e);
    case PROP_W: return read_move(s, TG_WHITE, e);
    case PROP_SZ: return read_size(s, e);
    case PROP_RU: return read_rule(s, e);
    case PROP_GM:
        if (strcmp(s->value, "4") == 0) return true;
        return record_fail(e, "line %d: GM is not 4 (Gomoku/Renju)", s->value_line);
    case PROP_RE: return keep_result(s, e);
    case PROP_PB: return read_simple_text(s, INFO_BLACK, e);
    case PROP_PW: return read_simple_text(s, INFO_WHITE, e);
    case PROP_DT: return read_simple_text(s, INFO_DATE, e);
    case PROP_EV: return read_simple_text(s, INFO_EVENT, e);
    case PROP_OPENING: return read_simple_text(s, INFO_OPENING, e);
    case PROP_C: /* the root's comment is the game's; move comments are dropped */
        return s->main_nodes > 1 ||
               record_draft_info(s->draft, INFO_COMMENT, s->value, s->value_len, e);
    default:
        return record_fail(e, "line %d: setup stones (%s) are not supported", s->value_line, s->id);
    }
}

static bool value_append(Sgf *s, char c) {
    if (s->value_len + 1 >= s->value_cap) {
        size_t cap = s->value_cap ? 2 * s->value_cap : 64;
        char *v = realloc(s->value, cap);
        if (!v) return false;
        s->value = v;
        s->value_cap = cap;
    }
    s->value[s->value_len++] = c;
    s->value[s->value_len] = '\0';
    return true;
}

/// An escaped line break is a soft break: it and its CR/LF partner vanish from the value.
static void soft_break(Sgf *s, char first) {
    char partner = first == '\n' ? '\r' : '\n';
    if (s->p < s->end && *s->p == partner) s->p++;
    s->line++;
}

/// Reads "[...]" at s->p into s->value, undoing the escapes.
static bool read_value(Sgf *s, RecordError *e) {
    s->value_line = s->line;
    s->value_len = 0;
    if (!value_append(s, '\0')) return record_fail(e, "out of memory");
    s->value_len = 0;
    for (s->p++; s->p < s->end;) {
        char c = *s->p++;
        if (c == ']') return true;
        if (c == '\\') {
            if (s->p >= s->end) break;
            c = *s->p++;
            if (c == '\n' || c == '\r') {
                soft_break(s, c);
                continue;
            }
        }
        s->line += c == '\n';
        if (!value_append(s, c)) return record_fail(e, "out of memory");
    }
    return record_fail(e, "line %d: the value of %s never ends (missing ']')", s->value_line,
                       s->id);
}

static bool read_property(Sgf *s, RecordError *e) {
    if (s->state != SGF_IN_NODE) {
        const char *where = s->state == SGF_TOP      ? "outside a game tree"
                            : s->state == SGF_OPENED ? "before the variation's first ';'"
                                                     : "after a variation";
        return record_fail(e, "line %d: property %s", s->line, where);
    }
    size_t n = 0;
    bool long_id = false;
    for (; s->p < s->end && is_id_char(*s->p); s->p++) {
        if (n < SGF_ID_MAX - 1)
            s->id[n++] = *s->p;
        else
            long_id = true;
    }
    s->id[n] = '\0';
    s->prop = long_id ? PROP_OTHER : prop_from_id(s->id);
    skip_space(s);
    if (s->p >= s->end || *s->p != '[')
        return record_fail(e, "line %d: property %s has no value", s->line, s->id);
    for (int k = 0; s->p < s->end && *s->p == '['; k++) {
        if (!read_value(s, e) || (s->in_main && !main_property(s, k, e))) return false;
        skip_space(s);
    }
    return true;
}

/* ---- Tree structure ---- */

static bool open_tree(Sgf *s, RecordError *e) {
    if (s->state == SGF_OPENED)
        return record_fail(e, "line %d: a variation must start with a node ';'", s->line);
    /* The main line runs through the first tree and, below it, each first child. */
    if (!s->main_done && s->depth == s->main_depth) s->main_depth++;
    s->depth++;
    s->seen_tree = true;
    s->state = SGF_OPENED;
    s->p++;
    return true;
}

static bool close_tree(Sgf *s, RecordError *e) {
    if (s->depth == 0) return record_fail(e, "line %d: ')' without a matching '('", s->line);
    if (s->state == SGF_OPENED) return record_fail(e, "line %d: empty variation '()'", s->line);
    if (!s->main_done && s->depth == s->main_depth) s->main_done = true;
    s->depth--;
    s->state = s->depth ? SGF_AFTER_CHILD : SGF_TOP;
    s->p++;
    return true;
}

static bool open_node(Sgf *s, RecordError *e) {
    if (s->state == SGF_TOP) return record_fail(e, "line %d: ';' outside a game tree", s->line);
    if (s->state == SGF_AFTER_CHILD)
        return record_fail(e, "line %d: a node after a variation (nodes come first)", s->line);
    s->in_main = !s->main_done && s->depth == s->main_depth;
    s->main_nodes += s->in_main;
    s->node_has_move = false;
    s->state = SGF_IN_NODE;
    s->p++;
    return true;
}

static bool unexpected(const Sgf *s, RecordError *e) {
    unsigned char c = (unsigned char)*s->p;
    if (c >= 0x20 && c < 0x7f) return record_fail(e, "line %d: unexpected '%c'", s->line, c);
    return record_fail(e, "line %d: unexpected byte 0x%02x", s->line, c);
}

static bool parse(Sgf *s, RecordError *e) {
    for (;;) {
        skip_space(s);
        if (s->p >= s->end) break;
        char c = *s->p;
        bool ok = c == '('        ? open_tree(s, e)
                  : c == ')'      ? close_tree(s, e)
                  : c == ';'      ? open_node(s, e)
                  : is_id_char(c) ? read_property(s, e)
                                  : unexpected(s, e);
        if (!ok) return false;
    }
    if (s->depth > 0)
        return record_fail(e, "line %d: the file ends inside %d open variation%s (missing ')')",
                           s->line, s->depth, s->depth == 1 ? "" : "s");
    if (!s->seen_tree) return record_fail(e, "no SGF game tree (a record starts with \"(;\")");
    return true;
}

TgGame *record_read_sgf(const char *data, size_t len, TgRule rule, int size, RecordError *e) {
    if (!record_text_ok(&data, &len, e)) return NULL;
    Sgf s = {.p = data, .end = data + len, .line = 1, .state = SGF_TOP, .size_arg = size};
    s.draft = record_draft_new(rule, 0, 0, "line", e);
    TgGame *g = NULL;
    if (s.draft && parse(&s, e)) {
        settle_size(&s);
        g = record_build(s.draft, e);
    }
    if (g && !judge_result(&s, g, e)) {
        tg_game_free(g);
        g = NULL;
    }
    free(s.value);
    free(s.result);
    record_draft_free(s.draft);
    return g;
}

/* ---- Writing ---- */

/// ID[value] with ']' and '\' escaped; nothing for an unset or empty value.
static void put_text(RecordBuf *b, const char *id, const char *value) {
    if (!value || !*value) return;
    record_puts(b, id);
    record_put(b, "[", 1);
    for (const char *v = value; *v; v++) {
        if (*v == ']' || *v == '\\') record_put(b, "\\", 1);
        record_put(b, v, 1);
    }
    record_put(b, "]", 1);
}

/// RE's value: B+ (five), B+R, B+T, W+F (Black's foul), 0 (any draw); NULL when unfinished.
static const char *result_text(TgResult r, char *buf, size_t size) {
    switch (r.reason) {
    case TG_REASON_NONE: return NULL;
    case TG_REASON_FULL_BOARD:
    case TG_REASON_AGREEMENT:
    case TG_REASON_PASSES: return "0";
    default: break;
    }
    if (r.winner != TG_BLACK && r.winner != TG_WHITE) return NULL;
    const char *how = r.reason == TG_REASON_RESIGN ? "R"
                      : r.reason == TG_REASON_TIME ? "T"
                      : r.reason == TG_REASON_FOUL ? "F"
                                                   : "";
    snprintf(buf, size, "%c+%s", r.winner == TG_BLACK ? 'B' : 'W', how);
    return buf;
}

static void put_header(const TgGame *g, RecordBuf *b) {
    int w = tg_game_width(g), h = tg_game_height(g);
    record_puts(b, "(;FF[4]GM[4]");
    if (w == h)
        record_printf(b, "SZ[%d]", w);
    else
        record_printf(b, "SZ[%d:%d]", w, h);
    record_printf(b, "RU[%s]", tg_rule_name(tg_game_rule(g)));
    put_text(b, "PB", tg_game_info(g, "black"));
    put_text(b, "PW", tg_game_info(g, "white"));
    put_text(b, "DT", tg_game_info(g, "date"));
    put_text(b, "EV", tg_game_info(g, "event"));
    char re[8];
    put_text(b, "RE", result_text(tg_game_result(g), re, sizeof re));
    put_text(b, "C", tg_game_info(g, "comment"));
    put_text(b, "OPENING", tg_game_info(g, "opening"));
}

bool record_write_sgf(const TgGame *g, RecordBuf *b, RecordError *e) {
    (void)e; /* every game can be written */
    put_header(g, b);
    for (int i = 0; i < tg_game_ply(g); i++) {
        TgPoint p = tg_game_move(g, i);
        char color = i % 2 ? 'W' : 'B';
        if (tg_point_is_pass(p))
            record_printf(b, ";%c[]", color);
        else
            record_printf(b, ";%c[%c%c]", color, 'a' + p.x, 'a' + p.y);
    }
    record_puts(b, ")\n");
    return true;
}
