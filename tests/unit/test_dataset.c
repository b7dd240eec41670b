/*
 * test_dataset.c — training data files (.tgd): games round-trip through the writer and the
 * reader, concatenated files read as one, every kind of malformed record is refused with a
 * message naming the offset and the fault, and `tg_datagen` games replay legally, carry a
 * score on every engine move, end as their result says and repeat for a seed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/core/dataset.h"
#include "../../src/core/game.h"

/// A scratch file name, removed by the test that made it.
static void temp_path(char *path, size_t size) {
    snprintf(path, size, "/tmp/tgd-test-XXXXXX");
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
}

static DataGame *sample_game(Rule rule, int size, int count, int result) {
    DataGame *g = calloc(1, sizeof *g);
    assert_non_null(g);
    *g = (DataGame){.rule = rule, .width = size, .height = size, .result = result, .count = count};
    for (int i = 0; i < count; i++) {
        g->moves[i] = pos_make(i % size, i / size);
        g->score[i] = i < 2 ? DATA_NO_SCORE : (int16_t)(i * 37 - 500);
    }
    return g;
}

static void assert_same_game(const DataGame *a, const DataGame *b) {
    assert_int_equal(a->rule, b->rule);
    assert_int_equal(a->width, b->width);
    assert_int_equal(a->height, b->height);
    assert_int_equal(a->result, b->result);
    assert_int_equal(a->count, b->count);
    for (int i = 0; i < a->count; i++) {
        assert_int_equal(a->moves[i], b->moves[i]);
        assert_int_equal(a->score[i], b->score[i]);
    }
}

static void write_games(const char *path, const char *mode, DataGame *const *games, int n) {
    FILE *f = fopen(path, mode);
    assert_non_null(f);
    for (int i = 0; i < n; i++) assert_true(dataset_write(f, games[i]));
    fclose(f);
}

/// Reads every game of the file, the first `max` into out; returns the count (fails the
/// test on an error).
static int load_games(const char *path, DataGame *out, int max) {
    char err[256];
    DataReader *r = dataset_open(path, err, sizeof err);
    if (!r) fail_msg("%s", err);
    DataGame *scratch = malloc(sizeof *scratch);
    int count = 0, got;
    while ((got = dataset_next(r, count < max ? &out[count] : scratch, err, sizeof err)) == 1)
        count++;
    if (got < 0) fail_msg("%s", err);
    free(scratch);
    dataset_close(r);
    return count;
}

/// Reads every game of the file, comparing the first n with expect; returns the count.
static int read_all(const char *path, DataGame *const *expect, int n) {
    DataGame *games = malloc(sizeof *games * (size_t)(n ? n : 1));
    const int count = load_games(path, games, n);
    for (int i = 0; i < n && i < count; i++) assert_same_game(&games[i], expect[i]);
    free(games);
    return count;
}

static void test_round_trip(void **state) {
    (void)state;
    char path[64];
    temp_path(path, sizeof path);
    DataGame *games[4] = {sample_game(TG_FREESTYLE, 15, 40, 0), sample_game(TG_RENJU, 15, 0, 2),
                          sample_game(TG_CARO9, 5, 25, 1), sample_game(TG_STANDARD, 22, 300, 1)};
    games[0]->score[39] = TG_SCORE_WIN - 1;
    games[3]->score[7] = -TG_SCORE_WIN;
    write_games(path, "wb", games, 2);
    write_games(path, "ab", games + 2, 2); // appending: no second header
    assert_int_equal(read_all(path, games, 4), 4);
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    assert_int_equal(ftell(f), DATA_HEADER_BYTES + 4 * DATA_RECORD_BYTES +
                                   (40 + 0 + 25 + 300) * DATA_MOVE_BYTES);
    fclose(f);
    /* A game that cannot be stored is refused and nothing is written. */
    games[1]->count = 1;
    games[1]->moves[0] = POS_NONE;
    f = fopen(path, "ab");
    assert_false(dataset_write(f, games[1]));
    fclose(f);
    assert_int_equal(read_all(path, games, 0), 4);
    for (int i = 0; i < 4; i++) free(games[i]);
    remove(path);
}

/// Appends file `from` to file `to`, as `cat from >> to` does.
static void cat_into(const char *to, const char *from) {
    FILE *in = fopen(from, "rb"), *out = fopen(to, "ab");
    assert_true(in && out);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) assert_int_equal(fwrite(buf, 1, n, out), n);
    fclose(in);
    fclose(out);
}

static void test_concatenated_files(void **state) {
    (void)state;
    char a[64], b[64];
    temp_path(a, sizeof a);
    temp_path(b, sizeof b);
    DataGame *games[3] = {sample_game(TG_FREESTYLE, 15, 30, 0), sample_game(TG_RENJU, 15, 12, 1),
                          sample_game(TG_FREESTYLE, 20, 50, 2)};
    write_games(a, "wb", games, 1);
    write_games(b, "wb", games + 1, 2);
    cat_into(a, b);
    cat_into(a, b); // the second file twice: games 1, 2, 1, 2 after game 0
    DataGame *expect[5] = {games[0], games[1], games[2], games[1], games[2]};
    assert_int_equal(read_all(a, expect, 5), 5);
    for (int i = 0; i < 3; i++) free(games[i]);
    remove(a);
    remove(b);
}

/* ---- Malformed files ---- */

typedef struct Bytes {
    unsigned char data[512];
    size_t len;
} Bytes;

static void put(Bytes *b, int n, ...) {
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) b->data[b->len++] = (unsigned char)va_arg(ap, int);
    va_end(ap);
}

static void put_header(Bytes *b) { put(b, 8, 'T', 'G', 'D', '1', 1, 0, 0, 0); }

/// A good three-move 15x15 freestyle record (h8, i9, j10 with scores).
static void put_good_record(Bytes *b) {
    put(b, 6, TG_FREESTYLE, 15, 15, 0, 3, 0);
    put(b, 4, 7, 7, 0x00, 0x80); // DATA_NO_SCORE
    put(b, 4, 8, 6, 0x10, 0x00);
    put(b, 4, 9, 5, 0xf0, 0xff);
}

/// Reads the bytes as a data file; returns the first error (or "" when all were read) and
/// the number of games read before it in *games.
typedef struct Message {
    char text[256];
} Message;

static const char *read_bytes(const Bytes *b, int *games, Message *m) {
    char *err = m->text;
    const size_t err_size = sizeof m->text;
    err[0] = 0;
    *games = 0;
    FILE *f = fmemopen((void *)b->data, b->len ? b->len : 1, "rb");
    assert_non_null(f);
    if (!b->len) fgetc(f); // an empty file: fmemopen wants one byte
    DataReader *r = dataset_open_stream(f, "bad.tgd", err, err_size);
    if (!r) return err;
    DataGame *g = malloc(sizeof *g);
    int got;
    while ((got = dataset_next(r, g, err, err_size)) == 1) ++*games;
    if (got == 0) err[0] = 0;
    free(g);
    dataset_close(r);
    return err;
}

static void expect_error(const Bytes *b, int games_before, const char *needle) {
    int games;
    Message m;
    const char *err = read_bytes(b, &games, &m);
    if (!strstr(err, needle)) fail_msg("expected '%s' in '%s'", needle, err);
    assert_int_equal(games, games_before);
}

/// A record that must be refused, and a part of the message.
typedef struct BadRecord {
    unsigned char bytes[20];
    size_t len;
    const char *fault;
} BadRecord;

static const BadRecord BAD_RECORDS[] = {
    {{TG_RULE_COUNT, 15, 15, 0, 0, 0}, 6, "offset 26: game 2: unknown rule"},
    {{TG_RENJU, 4, 15, 0, 0, 0}, 6, "board size out of range"},
    {{TG_RENJU, 15, 23, 0, 0, 0}, 6, "board size out of range"},
    {{TG_RENJU, 15, 15, 3, 0, 0}, 6, "unknown result"},
    {{TG_FREESTYLE, 5, 5, 0, 26, 0}, 6, "more moves than the board has points"},
    {{TG_FREESTYLE, 15, 15, 0, 2, 0, 3, 3, 0, 0, 15, 3, 0, 0},
     14,
     "offset 36: game 2, move 2 (x 15, y 3, score 0): move off the board"},
    {{TG_FREESTYLE, 15, 15, 0, 1, 0, 255, 255, 0, 0}, 10, "move off the board"},
    {{TG_FREESTYLE, 15, 15, 0, 3, 0, 3, 3, 0, 0, 4, 4, 0, 0, 3, 3, 0, 0},
     18,
     "move 3 (x 3, y 3, score 0): a stone on an occupied point"},
    {{TG_FREESTYLE, 15, 15, 0, 1, 0, 3, 3, 0x31, 0x75}, 10, "score out of range"}, // 30001
};

static void test_malformed_refused(void **state) {
    (void)state;
    Bytes b = {0};
    int games;
    Message m;
    put_header(&b);
    put_good_record(&b);
    assert_string_equal(read_bytes(&b, &games, &m), "");
    assert_int_equal(games, 1);
    /* The file header. */
    expect_error(&(Bytes){.len = 0}, 0, "not a tengen training data file");
    Bytes magic = {0};
    put(&magic, 8, 'T', 'G', 'S', 'P', 1, 0, 0, 0);
    expect_error(&magic, 0, "not a tengen training data file");
    Bytes version = {0};
    put(&version, 8, 'T', 'G', 'D', '1', 2, 0, 0, 0);
    expect_error(&version, 0, "data file version 2");
    /* Truncated: in the head and in the moves (offset 26: the second record). */
    Bytes cut = b;
    put(&cut, 3, TG_FREESTYLE, 15, 15);
    expect_error(&cut, 1, "offset 26: truncated record (3 of 6 head bytes)");
    cut = b;
    put(&cut, 6, TG_FREESTYLE, 15, 15, 2, 2, 0);
    put(&cut, 5, 1, 1, 0, 0, 2);
    expect_error(&cut, 1, "truncated record (5 of 8 move bytes)");
    /* Head fields, then moves: each bad record follows the good one (at offset 26). */
    for (size_t k = 0; k < sizeof BAD_RECORDS / sizeof BAD_RECORDS[0]; k++) {
        const BadRecord *r = &BAD_RECORDS[k];
        Bytes bad = b;
        memcpy(bad.data + bad.len, r->bytes, r->len);
        bad.len += r->len;
        expect_error(&bad, 1, r->fault);
    }
    Bytes bad = b;
    /* A repeated header is skipped, a broken one refused. */
    Bytes twice = b;
    put_header(&twice);
    put_good_record(&twice);
    put_header(&twice);
    assert_string_equal(read_bytes(&twice, &games, &m), "");
    assert_int_equal(games, 2);
    put(&bad, 8, 'T', 'G', 'D', '1', 9, 0, 0, 0);
    expect_error(&bad, 1, "offset 26: repeated file header: unknown data file version");
    bad = b;
    put(&bad, 6, 'T', 'G', 'D', '1', 1, 0);
    expect_error(&bad, 1, "repeated file header: truncated file header");
    /* A missing file. */
    char err[256];
    assert_null(dataset_open("/nonexistent/x.tgd", err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/x.tgd"));
}

/* ---- Replayed by the rules (tg_data_summary) ---- */

/// Writes one game given as h8 points (scores: none for the first `opening`, then 10, 20, ...)
/// to a fresh file and summarises it; returns the error ("" when none).
static TgError summarise(const char *path, Rule rule, const char *moves, int opening, int result,
                         int last_score, TgDataSummary *sum, Message *m) {
    DataGame *g = calloc(1, sizeof *g);
    TgPoint p[64];
    int n;
    if (tg_parse_moves(moves, 15, 15, p, 64, &n, m->text, sizeof m->text) != TG_OK)
        fail_msg("%s: %s", moves, m->text);
    *g = (DataGame){.rule = rule, .width = 15, .height = 15, .result = result, .count = n};
    for (int i = 0; i < n; i++) {
        g->moves[i] = pos_make(p[i].x, p[i].y);
        g->score[i] = i < opening ? DATA_NO_SCORE : (int16_t)(10 * i);
    }
    if (n) g->score[n - 1] = (int16_t)last_score;
    remove(path);
    write_games(path, "wb", &g, 1);
    free(g);
    m->text[0] = 0;
    return tg_data_summary(path, sum, m->text, sizeof m->text);
}

static void test_summary_replays(void **state) {
    (void)state;
    char path[64];
    temp_path(path, sizeof path);
    TgDataSummary sum;
    Message m;
    /* Black's five on the last move. */
    const char *five = "h8 a1 i8 a2 j8 a3 k8 a4 l8";
    assert_int_equal(summarise(path, TG_FREESTYLE, five, 2, 0, 29999, &sum, &m), TG_OK);
    assert_int_equal(sum.games, 1);
    assert_int_equal(sum.moves, 9);
    assert_int_equal(sum.positions, 7);
    assert_int_equal(sum.results[TG_BLACK], 1);
    assert_int_equal(sum.adjudicated, 0);
    assert_int_equal(sum.rules[TG_FREESTYLE], 1);
    assert_int_equal(summarise(path, TG_FREESTYLE, five, 2, 1, 29999, &sum, &m), TG_ERR_PARSE);
    assert_non_null(strstr(m.text, "offset 8: game 1: the result is not the five's winner"));
    /* A move after the five. */
    assert_int_equal(
        summarise(path, TG_FREESTYLE, "h8 a1 i8 a2 j8 a3 k8 a4 l8 a5", 2, 0, 0, &sum, &m),
        TG_ERR_PARSE);
    assert_non_null(strstr(m.text, "game 1, move 10: a move after a five"));
    /* Adjudicated: the last score announces White's forced win (Black moved last). */
    const char *open = "h8 h9 i8 i9 j8 g7 k9";
    assert_int_equal(summarise(path, TG_FREESTYLE, open, 2, 1, -29990, &sum, &m), TG_OK);
    assert_int_equal(sum.adjudicated, 1);
    assert_int_equal(summarise(path, TG_FREESTYLE, open, 2, 0, -29990, &sum, &m), TG_ERR_PARSE);
    assert_non_null(strstr(m.text, "a result that neither a five nor the last score explains"));
    assert_int_equal(summarise(path, TG_FREESTYLE, open, 2, 2, 15, &sum, &m), TG_OK);
    /* A renju foul: Black's j8 makes two open threes, h8-i8-j8 and j8-j9-j10; fine in
     * freestyle. */
    const char *double_three = "h8 a1 i8 a3 j9 a5 j10 a7 j8";
    assert_int_equal(summarise(path, TG_RENJU, double_three, 2, 2, 0, &sum, &m), TG_ERR_PARSE);
    assert_non_null(strstr(m.text, "move 9: a renju foul"));
    assert_int_equal(summarise(path, TG_FREESTYLE, double_three, 2, 2, 0, &sum, &m), TG_OK);
    remove(path);
    assert_int_equal(tg_data_summary(path, &sum, m.text, sizeof m.text), TG_ERR_IO);
    /* The tuner's fixed file (tests/data/README.md) is sound. */
    if (tg_data_summary("tests/data/tune-small.tgd", &sum, m.text, sizeof m.text) != TG_OK)
        fail_msg("%s", m.text);
    assert_int_equal(sum.games, 60);
    assert_int_equal(sum.positions, 1635);
    assert_int_equal(sum.rules[TG_FREESTYLE], 60);
}

/* ---- Generated games ---- */

/// Checks one generated game: it replays by the rules, the opening has no scores and every
/// later move has one, and the result is the five, a full board or the forced result the
/// last score announces. Returns the opening's length.
static int check_generated(const DataGame *d, const TgDatagenSettings *s) {
    assert_int_equal(d->rule, s->rule);
    assert_int_equal(d->width, s->size);
    TgGame *g = tg_game_new(d->rule, d->width, d->height);
    int opening = 0;
    while (opening < d->count && d->score[opening] == DATA_NO_SCORE) opening++;
    assert_in_range(opening, s->random_min, s->random_max);
    for (int i = 0; i < d->count; i++) {
        if (i >= opening) assert_int_not_equal(d->score[i], DATA_NO_SCORE);
        assert_false(tg_game_over(g));
        assert_int_equal(tg_game_play(g, game_point(d->moves[i]), 0), TG_OK);
    }
    const TgResult r = tg_game_result(g);
    const int last = d->count - 1;
    if (r.reason == TG_REASON_FIVE) {
        assert_int_equal(d->result, r.winner);
        assert_int_equal(r.winner, last % 2); // the last mover made it
    } else if (d->result != TG_NOBODY) {
        /* Adjudicated: the last engine move announced the forced result. */
        assert_true(abs(d->score[last]) >= TG_SCORE_WIN_MIN);
        assert_int_equal(d->result, d->score[last] > 0 ? last % 2 : 1 - last % 2);
    }
    tg_game_free(g);
    return opening;
}

static void generate(const TgDatagenSettings *s, const char *path) {
    char err[256] = "";
    remove(path);
    const TgError e = tg_datagen(s, path, NULL, NULL, err, sizeof err);
    if (e != TG_OK) fail_msg("%s", err);
}

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    char *data = malloc(*len + 1);
    assert_int_equal(fread(data, 1, *len, f), *len);
    fclose(f);
    return data;
}

static void count_progress(int games, uint64_t positions, double seconds, void *user) {
    (void)positions, (void)seconds;
    int *calls = user;
    assert_int_equal(games, *calls + 1);
    ++*calls;
}

/// 15x15, one thread.
static TgDatagenSettings settings(Rule rule, int games, uint64_t nodes, uint64_t seed,
                                  int random_min, int random_max) {
    return (TgDatagenSettings){.rule = rule,
                               .size = 15,
                               .games = games,
                               .nodes = nodes,
                               .threads = 1,
                               .seed = seed,
                               .random_min = random_min,
                               .random_max = random_max};
}

static void test_datagen_games(void **state) {
    (void)state;
    char path[64], again[64], err[256];
    temp_path(path, sizeof path);
    temp_path(again, sizeof again);
    const Rule rules[] = {TG_FREESTYLE, TG_RENJU};
    for (int k = 0; k < 2; k++) {
        const TgDatagenSettings s = settings(rules[k], 4, 300, 11, 2, 6);
        generate(&s, path);
        DataGame *d = malloc(sizeof *d * 5);
        assert_int_equal(load_games(path, d, 5), 4);
        int openings[4];
        for (int i = 0; i < 4; i++) openings[i] = check_generated(&d[i], &s);
        assert_false(openings[0] == openings[1] && openings[1] == openings[2] &&
                     openings[2] == openings[3]); // openings vary (for this seed)
        free(d);
        /* The same seed with one thread: the same bytes. */
        generate(&s, again);
        size_t la, lb;
        char *a = slurp(path, &la), *b = slurp(again, &lb);
        assert_int_equal(la, lb);
        assert_memory_equal(a, b, la);
        free(a);
        free(b);
    }
    /* No opening is played twice (up to symmetry), in a run or in the file it appends to: one
     * stone near the centre of 15x15 has ten places that differ, so eight games in two runs
     * take eight of them. */
    const TgDatagenSettings one = settings(TG_FREESTYLE, 4, 100, 5, 1, 1);
    generate(&one, path);
    assert_int_equal(tg_datagen(&one, path, NULL, NULL, err, sizeof err), TG_OK);
    DataGame *d = malloc(sizeof *d * 8);
    assert_int_equal(load_games(path, d, 8), 8);
    bool seen[4][4] = {{false}};
    for (int i = 0; i < 8; i++) {
        const int dx = abs(pos_x(d[i].moves[0]) - 7), dy = abs(pos_y(d[i].moves[0]) - 7);
        const int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
        assert_false(seen[lo][hi]);
        seen[lo][hi] = true;
    }
    free(d);
    /* Two threads: exactly the games asked for, each reported once. */
    const TgDatagenSettings two = {
        .rule = TG_FREESTYLE, .size = 9, .games = 5, .nodes = 200, .threads = 2, .seed = 3};
    int calls = 0;
    remove(path);
    assert_int_equal(tg_datagen(&two, path, count_progress, &calls, err, sizeof err), TG_OK);
    assert_int_equal(calls, 5);
    assert_int_equal(read_all(path, NULL, 0), 5);
    /* Bad settings and an unwritable file are refused with a message. */
    TgDatagenSettings bad = two;
    bad.random_min = 5, bad.random_max = 3;
    assert_int_equal(tg_datagen(&bad, path, NULL, NULL, err, sizeof err), TG_ERR_ARGUMENT);
    assert_non_null(strstr(err, "random stones"));
    bad = two;
    bad.games = 0;
    assert_int_equal(tg_datagen(&bad, path, NULL, NULL, err, sizeof err), TG_ERR_ARGUMENT);
    assert_int_equal(tg_datagen(&two, "/nonexistent/x.tgd", NULL, NULL, err, sizeof err),
                     TG_ERR_IO);
    assert_non_null(strstr(err, "/nonexistent/x.tgd"));
    /* Nothing is appended to a file that is not sound data. */
    FILE *f = fopen(path, "wb");
    fwrite("TGD1\1\0\0\0\1", 1, 9, f);
    fclose(f);
    assert_int_equal(tg_datagen(&two, path, NULL, NULL, err, sizeof err), TG_ERR_PARSE);
    if (!strstr(err, "offset 8: truncated record")) fail_msg("%s", err);
    size_t len;
    free(slurp(path, &len));
    assert_int_equal(len, 9);
    remove(path);
    remove(again);
}

/// A game played by the rules from h8-notation moves (a record from elsewhere).
static TgGame *game_from(TgRule rule, const char *moves) {
    char err[200];
    TgGame *g = tg_record_read(TG_FORMAT_MOVES, moves, strlen(moves), rule, 15, err, sizeof err);
    if (!g) fail_msg("%s: %s", moves, err);
    return g;
}

static void test_import_games(void **state) {
    (void)state;
    char path[64], err[256];
    temp_path(path, sizeof path);
    remove(path);
    /* White wins with a five after a two-stone book; Black wins in renju with none. */
    TgGame *games[2] = {game_from(TG_FREESTYLE, "h8 i9 a1 i10 a3 i11 a5 i12 a7 i13"),
                        game_from(TG_RENJU, "h8 a1 h9 a3 h10 a5 h11 a7 h12")};
    const int book[2] = {2, 0};
    int calls = 0;
    const TgDataImport im = {.games = games, .book = book, .count = 2, .nodes = 300, .threads = 2};
    assert_int_equal(tg_data_import(&im, path, count_progress, &calls, err, sizeof err), TG_OK);
    assert_int_equal(calls, 2);
    DataGame *d = malloc(sizeof *d * 3);
    assert_int_equal(load_games(path, d, 3), 2);
    if (d[0].rule != TG_FREESTYLE) { // two threads: either may be written first
        const DataGame t = d[0];
        d[0] = d[1], d[1] = t;
    }
    /* The games' own moves and results; a score for every move after the book. */
    for (int k = 0; k < 2; k++) {
        const TgGame *g = games[d[k].rule == TG_FREESTYLE ? 0 : 1];
        const int b = d[k].rule == TG_FREESTYLE ? 2 : 0;
        assert_int_equal(d[k].count, tg_game_ply(g));
        assert_int_equal(d[k].result, tg_game_result(g).winner);
        for (int i = 0; i < d[k].count; i++) {
            const TgPoint p = tg_game_move(g, i);
            assert_int_equal(d[k].moves[i], pos_make(p.x, p.y));
            assert_int_equal(d[k].score[i] == DATA_NO_SCORE, i < b);
        }
    }
    assert_int_equal(d[0].result, TG_WHITE);
    /* Black to move against White's open four (i9-i12): a forced loss for the side to move. */
    assert_true(d[0].score[8] <= -TG_SCORE_WIN_MIN);
    free(d);
    TgDataSummary sum;
    assert_int_equal(tg_data_summary(path, &sum, err, sizeof err), TG_OK);
    assert_int_equal(sum.positions, 8 + 9);
    /* An unfinished game, a pass or a book longer than the game: refused before any search,
     * naming the game; nothing is written. */
    const long before = (long)sum.moves;
    TgGame *open = game_from(TG_FREESTYLE, "h8 i9 h9");
    TgGame *list[2] = {games[0], open};
    const TgDataImport unfinished = {.games = list, .count = 2};
    assert_int_equal(tg_data_import(&unfinished, path, NULL, NULL, err, sizeof err),
                     TG_ERR_ARGUMENT);
    if (!strstr(err, "game 2: the game did not end at a five or in a draw")) fail_msg("%s", err);
    const int long_book[1] = {11};
    const TgDataImport too_long = {.games = games, .book = long_book, .count = 1};
    assert_int_equal(tg_data_import(&too_long, path, NULL, NULL, err, sizeof err), TG_ERR_ARGUMENT);
    assert_non_null(strstr(err, "game 1: the book is longer than the game"));
    const int beyond[9] = {0, 0, 0, 0, 0, 0, 0, 0, TG_SCORE_WIN + 1};
    const int *beyond_scores[1] = {beyond};
    const TgDataImport bad_score = {.games = games + 1, .scores = beyond_scores, .count = 1};
    assert_int_equal(tg_data_import(&bad_score, path, NULL, NULL, err, sizeof err),
                     TG_ERR_ARGUMENT);
    assert_non_null(strstr(err, "game 1: a score beyond the scale"));
    const TgDataImport none = {.games = games, .count = 0};
    assert_int_equal(tg_data_import(&none, path, NULL, NULL, err, sizeof err), TG_ERR_ARGUMENT);
    assert_string_equal(err, "no games");
    const TgDataImport crowd = {.games = games, .count = 1, .threads = TG_MAX_THREADS + 1};
    assert_int_equal(tg_data_import(&crowd, path, NULL, NULL, err, sizeof err), TG_ERR_ARGUMENT);
    assert_string_equal(err, "threads out of range");
    assert_int_equal(tg_data_summary(path, &sum, err, sizeof err), TG_OK);
    assert_int_equal((long)sum.moves, before);
    /* Scores another engine gave are kept as they are, with no search. */
    remove(path);
    const int given[8] = {-50, 120, -300, 400, -900, 29991, -29992, 29999};
    const int *given_scores[1] = {given};
    const TgDataImport with_scores = {
        .games = games, .book = book, .scores = given_scores, .count = 1};
    assert_int_equal(tg_data_import(&with_scores, path, NULL, NULL, err, sizeof err), TG_OK);
    d = malloc(sizeof *d * 2);
    assert_int_equal(load_games(path, d, 2), 1);
    assert_int_equal(d[0].score[0], DATA_NO_SCORE);
    assert_int_equal(d[0].score[1], DATA_NO_SCORE);
    for (int i = 0; i < 8; i++) assert_int_equal(d[0].score[2 + i], given[i]);
    free(d);
    tg_game_free(open);
    for (int k = 0; k < 2; k++) tg_game_free(games[k]);
    remove(path);
}

static void test_import_lines(void **state) {
    (void)state;
    char err[300];
    int book, *scores;
    TgGame *g = tg_data_import_line("h8 i9 | a1:-50 i10:120 a3:-300 i11:400 a5:-900 i12:29991 "
                                    "a7:-29992 i13:29999",
                                    TG_FREESTYLE, 15, &book, &scores, err, sizeof err);
    if (!g) fail_msg("%s", err);
    assert_int_equal(book, 2);
    assert_int_equal(tg_game_ply(g), 10);
    assert_int_equal(tg_game_result(g).winner, TG_WHITE);
    assert_non_null(scores);
    assert_int_equal(scores[0], -50);
    assert_int_equal(scores[7], 29999);
    free(scores);
    tg_game_free(g);
    g = tg_data_import_line("h8 i9 h9 # no book", TG_RENJU, 15, &book, &scores, err, sizeof err);
    assert_null(g); // '#' is the file reader's comment, not the line's
    g = tg_data_import_line("h8i9h9", TG_RENJU, 15, &book, &scores, err, sizeof err);
    assert_non_null(g);
    assert_int_equal(book, 0);
    assert_null(scores);
    assert_false(tg_game_over(g));
    tg_game_free(g);
    const char *bad[][2] = {
        {"h8 i9 | a1:-50 i10", "a score on 1 of the 2 moves after the book: all or none"},
        {"h8 | i9:1e3", "a bad score in 'i9:1e3'"},
        {"h8 | i9:30001", "a bad score in 'i9:30001'"},
        {"h8 | i9i10:5", "1 scores for 2 moves after the book"},
        {"h8 z9 | i9", "the book: "},
        {"h8 | h8", "lands on a stone already there"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        scores = (int *)1;
        g = tg_data_import_line(bad[k][0], TG_FREESTYLE, 15, &book, &scores, err, sizeof err);
        assert_null(g);
        assert_null(scores);
        if (!strstr(err, bad[k][1])) fail_msg("%s: %s", bad[k][0], err);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import_lines),      cmocka_unit_test(test_import_games),
        cmocka_unit_test(test_round_trip),        cmocka_unit_test(test_concatenated_files),
        cmocka_unit_test(test_malformed_refused), cmocka_unit_test(test_summary_replays),
        cmocka_unit_test(test_datagen_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
