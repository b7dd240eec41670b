// api_test.cpp — tengen.h from C++ (as most GUIs would use it): the header compiles as C++,
// links against libtengen.a, and a search stops on a std::atomic<bool> flag.
#include <cstdio>
#include <thread>

#include "../../src/tengen.h"

static int failures = 0;

static void check(bool ok, const char *what) {
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) failures++;
}

int main() {
    TgGame *game = tg_game_new(TG_RENJU, 15, 15);
    TgEngine *engine = tg_engine_new(1, 8 << 20);
    check(game && engine, "a game and an engine");
    TgPoint h8 = {7, 7};
    check(tg_game_play(game, h8, 0) == TG_OK, "a move");

    TgStopFlag stop(false);
    TgSearchLimits limits = {};
    limits.stop = &stop;
    TgSearchResult result;
    const int64_t start = tg_now_ms();
    std::thread stopper([&stop] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        stop = true;
    });
    const TgError e = tg_engine_search(engine, game, &limits, nullptr, nullptr, &result);
    stopper.join();
    const int64_t spent = tg_now_ms() - start;
    check(e == TG_OK && tg_game_check(game, result.best, nullptr) == TG_OK,
          "an unlimited search returns a legal move");
    check(spent >= 100 && spent < 2000, "the stop flag ends it");

    tg_engine_free(engine);
    tg_game_free(game);
    std::printf("cxx: %d passed, %d failed\n", 4 - failures, failures);
    return failures ? 1 : 0;
}
