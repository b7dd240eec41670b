/*
 * ladder.c — ladder results, the Bradley-Terry fit, the table and the SVG picture (ladder.h).
 */
#include "ladder.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double Z95 = 1.96;        ///< standard errors in half a 95% interval
static const double PRIOR_DRAWS = 1.0; ///< virtual draws added to each pair played
static const double MAX_STEP = 400.0;  ///< most Elo one Newton step may move a rating
static const double PASS_SCORE = 0.75; ///< a level's least score against the one below

/* ---- Results ---- */

void ladder_player_name(const LadderPlayer *p, char *buf, size_t size) {
    if (p->nodes)
        snprintf(buf, size, "%s@%" PRIu64, tg_level_name(p->level), p->nodes);
    else
        snprintf(buf, size, "%s", tg_level_name(p->level));
}

void ladder_results_init(LadderResults *r) { memset(r, 0, sizeof *r); }

int ladder_results_player(LadderResults *r, const LadderPlayer *p) {
    for (int i = 0; i < r->player_count; i++)
        if (strcmp(r->player[i].name, p->name) == 0) return i;
    if (r->player_count == LADDER_MAX_PLAYERS) return -1;
    r->player[r->player_count] = *p;
    return r->player_count++;
}

static LadderPair *pair_of(LadderResults *r, int a, int b) {
    for (int i = 0; i < r->pair_count; i++)
        if (r->pair[i].a == a && r->pair[i].b == b) return &r->pair[i];
    LadderPair *p = &r->pair[r->pair_count++];
    *p = (LadderPair){.a = a, .b = b};
    return p;
}

void ladder_results_add(LadderResults *r, int black, int white, double black_score) {
    const int a = black < white ? black : white, b = black < white ? white : black;
    const double score_a = black == a ? black_score : 1 - black_score;
    LadderPair *p = pair_of(r, a, b);
    if (score_a == 1)
        p->win++;
    else if (score_a == 0)
        p->loss++;
    else
        p->draw++;
}

bool ladder_player_parse(const char *name, LadderPlayer *p) {
    char level[40];
    const char *at = strchr(name, '@');
    const size_t len = at ? (size_t)(at - name) : strlen(name);
    if (len >= sizeof level) return false;
    memcpy(level, name, len);
    level[len] = '\0';
    *p = (LadderPlayer){0};
    if (!tg_level_from_name(level, &p->level)) return false;
    if (at) {
        char *end;
        p->nodes = strtoull(at + 1, &end, 10);
        if (*end || !p->nodes) return false;
    }
    ladder_player_name(p, p->name, sizeof p->name);
    return true;
}

static bool read_game_line(LadderResults *r, const char *line, char *err, size_t err_size) {
    char black[40], white[40], result[8];
    LadderPlayer pb, pw;
    if (sscanf(line, "%39s %39s %7s", black, white, result) != 3)
        return snprintf(err, err_size, "want `black white result ...`"), false;
    if (!ladder_player_parse(black, &pb) || !ladder_player_parse(white, &pw))
        return snprintf(err, err_size, "unknown level in '%s %s'", black, white), false;
    const double score = strcmp(result, "1-0") == 0   ? 1
                         : strcmp(result, "0-1") == 0 ? 0
                         : strcmp(result, "1/2") == 0 ? 0.5
                                                      : -1;
    if (score < 0)
        return snprintf(err, err_size, "result '%s' is not 1-0, 0-1 or 1/2", result), false;
    const int b = ladder_results_player(r, &pb), w = ladder_results_player(r, &pw);
    if (b < 0 || w < 0) return snprintf(err, err_size, "too many levels"), false;
    if (b == w) return snprintf(err, err_size, "%s plays itself", black), false;
    ladder_results_add(r, b, w, score);
    return true;
}

bool ladder_results_read(LadderResults *r, const char *text, char *settings, size_t settings_size,
                         char *err, size_t err_size) {
    static const char SETTINGS[] = "# settings: ";
    int line_no = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
        line_no++;
        if (strncmp(buf, SETTINGS, sizeof SETTINGS - 1) == 0 && !settings[0])
            snprintf(settings, settings_size, "%s", buf + sizeof SETTINGS - 1);
        else if (buf[0] && buf[0] != '#') {
            char why[200];
            if (!read_game_line(r, buf, why, sizeof why))
                return snprintf(err, err_size, "line %d: %s", line_no, why), false;
        }
        line = end ? end + 1 : line + len;
    }
    return true;
}

/* ---- The fit ---- */

/// Expected score of a player rated `d` Elo above its opponent.
static double expected(double d) { return 1 / (1 + pow(10, -d / 400)); }

/// Solves m x = v for the n x n matrix m (Gauss-Jordan, partial pivoting) and, when inv is
/// not NULL, writes m's inverse. False when m is singular.
static bool solve(int n, double m[LADDER_MAX_PLAYERS][LADDER_MAX_PLAYERS], double *v,
                  double inv[LADDER_MAX_PLAYERS][LADDER_MAX_PLAYERS]) {
    double a[LADDER_MAX_PLAYERS][2 * LADDER_MAX_PLAYERS + 1];
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            a[i][j] = m[i][j];
            a[i][n + j] = i == j;
        }
        a[i][2 * n] = v[i];
    }
    for (int c = 0; c < n; c++) {
        int best = c;
        for (int i = c + 1; i < n; i++)
            if (fabs(a[i][c]) > fabs(a[best][c])) best = i;
        if (fabs(a[best][c]) < 1e-12) return false;
        for (int j = 0; j <= 2 * n; j++) {
            const double t = a[c][j];
            a[c][j] = a[best][j];
            a[best][j] = t;
        }
        const double pivot = a[c][c];
        for (int j = 0; j <= 2 * n; j++) a[c][j] /= pivot;
        for (int i = 0; i < n; i++) {
            if (i == c || a[i][c] == 0) continue;
            const double f = a[i][c];
            for (int j = 0; j <= 2 * n; j++) a[i][j] -= f * a[c][j];
        }
    }
    for (int i = 0; i < n; i++) {
        v[i] = a[i][2 * n];
        if (inv)
            for (int j = 0; j < n; j++) inv[i][j] = a[i][n + j];
    }
    return true;
}

static int anchor_of(const LadderResults *r) {
    for (int i = 0; i < r->player_count; i++)
        if (r->player[i].level == TG_LEVEL_BEGINNER && !r->player[i].nodes) return i;
    return 0;
}

/// The negative Hessian and the gradient of the log-likelihood over the free players (every
/// player but the anchor, in order), in Elo units.
static void newton_terms(const LadderResults *r, const LadderFit *fit, const int *free_index,
                         double h[LADDER_MAX_PLAYERS][LADDER_MAX_PLAYERS], double *g) {
    const double k = log(10) / 400;
    const int n = r->player_count - 1;
    for (int i = 0; i < n; i++) {
        g[i] = 0;
        for (int j = 0; j < n; j++) h[i][j] = 0;
    }
    for (int i = 0; i < r->pair_count; i++) {
        const LadderPair *p = &r->pair[i];
        const double games = (double)(p->win + p->loss + p->draw) + PRIOR_DRAWS;
        const double score = (double)p->win + 0.5 * (double)p->draw + 0.5 * PRIOR_DRAWS;
        const double e = expected(fit->rating[p->a] - fit->rating[p->b]);
        const double grad = k * (score - games * e), curv = k * k * games * e * (1 - e);
        const int a = free_index[p->a], b = free_index[p->b];
        if (a >= 0) g[a] += grad, h[a][a] += curv;
        if (b >= 0) g[b] -= grad, h[b][b] += curv;
        if (a >= 0 && b >= 0) h[a][b] -= curv, h[b][a] -= curv;
    }
}

bool ladder_fit(const LadderResults *r, LadderFit *fit) {
    memset(fit, 0, sizeof *fit);
    fit->anchor = anchor_of(r);
    int free_index[LADDER_MAX_PLAYERS], player_of[LADDER_MAX_PLAYERS], n = 0;
    for (int i = 0; i < r->player_count; i++) {
        free_index[i] = i == fit->anchor ? -1 : n;
        if (i != fit->anchor) player_of[n++] = i;
    }
    double h[LADDER_MAX_PLAYERS][LADDER_MAX_PLAYERS], inv[LADDER_MAX_PLAYERS][LADDER_MAX_PLAYERS];
    double g[LADDER_MAX_PLAYERS];
    for (int iter = 0; iter < 100; iter++) {
        newton_terms(r, fit, free_index, h, g);
        if (!solve(n, h, g, NULL)) return false;
        double largest = 0;
        for (int i = 0; i < n; i++) largest = fmax(largest, fabs(g[i]));
        const double scale = largest > MAX_STEP ? MAX_STEP / largest : 1;
        for (int i = 0; i < n; i++) fit->rating[player_of[i]] += scale * g[i];
        if (largest < 1e-6) break;
    }
    newton_terms(r, fit, free_index, h, g);
    if (!solve(n, h, g, inv)) return false;
    for (int i = 0; i < n; i++) fit->error[player_of[i]] = Z95 * sqrt(inv[i][i]);
    return true;
}

/* ---- The table ---- */

/// Players by rating, weakest first.
static void by_rating(const LadderResults *r, const LadderFit *fit, int *order) {
    for (int i = 0; i < r->player_count; i++) order[i] = i;
    for (int i = 1; i < r->player_count; i++)
        for (int j = i; j > 0 && fit->rating[order[j]] < fit->rating[order[j - 1]]; j--) {
            const int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

static long games_of(const LadderResults *r, int player) {
    long n = 0;
    for (int i = 0; i < r->pair_count; i++)
        if (r->pair[i].a == player || r->pair[i].b == player)
            n += r->pair[i].win + r->pair[i].loss + r->pair[i].draw;
    return n;
}

/// A pair from the stronger player's side (by the fit): its wins, losses, score share.
typedef struct PairView {
    int strong, weak;
    long win, loss, draw;
    double score, expected;
} PairView;

static PairView view_of(const LadderPair *p, const LadderFit *fit) {
    const bool a_strong = fit->rating[p->a] >= fit->rating[p->b];
    PairView v = {a_strong ? p->a : p->b,
                  a_strong ? p->b : p->a,
                  a_strong ? p->win : p->loss,
                  a_strong ? p->loss : p->win,
                  p->draw,
                  0,
                  0};
    const double games = (double)(v.win + v.loss + v.draw);
    v.score = games > 0 ? ((double)v.win + 0.5 * (double)v.draw) / games : 0.5;
    v.expected = expected(fit->rating[v.strong] - fit->rating[v.weak]);
    return v;
}

/// Are the pair's players neighbours in the rating order?
static bool neighbours(const LadderResults *r, const int *order, const PairView *v) {
    for (int i = 0; i + 1 < r->player_count; i++)
        if (order[i] == v->weak && order[i + 1] == v->strong) return true;
    return false;
}

void ladder_print_table(FILE *f, const LadderResults *r, const LadderFit *fit,
                        const char *settings) {
    int order[LADDER_MAX_PLAYERS];
    by_rating(r, fit, order);
    fprintf(f, "tengen rating ladder: %s\n",
            settings && *settings ? settings : "(settings unknown)");
    fprintf(f,
            "Elo by maximum likelihood over all games (Bradley-Terry), %s = 0; 95%% intervals;\n"
            "level@N plays N nodes a move.\n\n",
            r->player[fit->anchor].name);
    fprintf(f, "%-20s %8s %8s %7s\n", "level", "rating", "95%", "games");
    for (int i = 0; i < r->player_count; i++) {
        const int p = order[i];
        char err[16] = "-";
        if (p != fit->anchor) snprintf(err, sizeof err, "+/-%.0f", fit->error[p]);
        fprintf(f, "%-20s %8.0f %8s %7ld\n", r->player[p].name, fit->rating[p] + 0.0, err,
                games_of(r, p));
    }
    fprintf(f, "\n%-40s %11s %7s %7s\n", "pair (stronger first)", "W-L-D", "score", "fit");
    for (int i = 0; i < r->pair_count; i++) {
        const PairView v = view_of(&r->pair[i], fit);
        char names[64], wld[32];
        snprintf(names, sizeof names, "%s - %s", r->player[v.strong].name, r->player[v.weak].name);
        snprintf(wld, sizeof wld, "%ld-%ld-%ld", v.win, v.loss, v.draw);
        const char *mark = !neighbours(r, order, &v) ? ""
                           : v.score >= PASS_SCORE   ? "  >= 75%"
                                                     : "  BELOW 75%";
        fprintf(f, "%-40s %11s %6.1f%% %6.1f%%%s\n", names, wld, 100 * v.score, 100 * v.expected,
                mark);
    }
}

/* ---- The picture ---- */

enum { SVG_WIDTH = 760, SVG_LEFT = 170, SVG_RIGHT = 40, SVG_TOP = 84, SVG_ROW = 44 };

/// A round step for the grid lines: about six of them across the range.
static double grid_step(double range) {
    static const double STEPS[] = {50, 100, 200, 250, 500, 1000, 2000};
    for (size_t i = 0; i < sizeof STEPS / sizeof STEPS[0]; i++)
        if (range / STEPS[i] <= 8) return STEPS[i];
    return 5000;
}

/// Writes text with the XML specials escaped.
static void svg_text(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
    }
}

void ladder_write_svg(FILE *f, const LadderResults *r, const LadderFit *fit, const char *settings) {
    int order[LADDER_MAX_PLAYERS];
    by_rating(r, fit, order);
    double lo = 0, hi = 0;
    for (int i = 0; i < r->player_count; i++) {
        lo = fmin(lo, fit->rating[i] - fit->error[i]);
        hi = fmax(hi, fit->rating[i] + fit->error[i]);
    }
    const double step = grid_step(hi - lo);
    lo = floor(lo / step) * step;
    hi = ceil(hi / step) * step;
    if (hi <= lo) hi = lo + step;
    const int plot = SVG_WIDTH - SVG_LEFT - SVG_RIGHT;
    const int height = SVG_TOP + SVG_ROW * r->player_count + 40 + 18 * r->pair_count + 20;
    const int axis_y = SVG_TOP + SVG_ROW * r->player_count;
#define X(v) (SVG_LEFT + ((v)-lo) / (hi - lo) * plot)
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d "
            "%d\" "
            "font-family=\"sans-serif\" font-size=\"13\">\n",
            SVG_WIDTH, height, SVG_WIDTH, height);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f,
            "<text x=\"%d\" y=\"24\" font-size=\"17\" font-weight=\"bold\">tengen levels: Elo "
            "above %s</text>\n",
            SVG_LEFT - 150, r->player[fit->anchor].name);
    fprintf(f, "<text x=\"%d\" y=\"44\" font-size=\"11\" fill=\"#555\">", SVG_LEFT - 150);
    svg_text(f, settings && *settings ? settings : "");
    fprintf(
        f,
        "</text>\n<text x=\"%d\" y=\"58\" font-size=\"11\" fill=\"#555\">dots: maximum-likelihood "
        "ratings (Bradley-Terry), bars: 95%% intervals</text>\n",
        SVG_LEFT - 150);
    for (double v = lo; v <= hi + 1e-9; v += step) {
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", X(v),
                SVG_TOP - 10, X(v), axis_y);
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%.0f</text>\n",
                X(v), axis_y + 16, v + 0.0);
    }
    for (int i = 0; i < r->player_count; i++) {
        const int p = order[r->player_count - 1 - i]; /* strongest on top */
        const int y = SVG_TOP + SVG_ROW * i + SVG_ROW / 2 - 10;
        const double x = X(fit->rating[p]), e0 = X(fit->rating[p] - fit->error[p]),
                     e1 = X(fit->rating[p] + fit->error[p]);
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", SVG_LEFT - 12, y + 4);
        svg_text(f, r->player[p].name);
        fprintf(f, "</text>\n");
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#3a6ea5\" "
                "stroke-width=\"3\"/>\n",
                e0, y, e1, y);
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%d\" r=\"6\" fill=\"#1d3f66\"/>\n", x, y);
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%.0f", x,
                y - 10, fit->rating[p] + 0.0);
        if (p != fit->anchor) fprintf(f, " &#177; %.0f", fit->error[p]);
        fprintf(f, "</text>\n");
    }
    int y = axis_y + 44;
    fprintf(f,
            "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">pairs (stronger first): "
            "wins-losses-draws, score</text>\n",
            SVG_LEFT - 150, y);
    for (int i = 0; i < r->pair_count; i++) {
        const PairView v = view_of(&r->pair[i], fit);
        y += 18;
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\">", SVG_LEFT - 150, y);
        svg_text(f, r->player[v.strong].name);
        fputs(" - ", f);
        svg_text(f, r->player[v.weak].name);
        fprintf(f, ": %ld-%ld-%ld, %.1f%%</text>\n", v.win, v.loss, v.draw, 100 * v.score);
    }
#undef X
    fprintf(f, "</svg>\n");
}
