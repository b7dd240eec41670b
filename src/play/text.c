/*
 * text.c — the English and Simplified Chinese texts of `tengen play`. Templates take
 * string arguments as {1}..{9}; play_fill() puts them in, so a language may reorder them.
 * Commands typed by the player stay English words in both languages.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play.h"

typedef struct Text {
    const char *en, *zh;
} Text;

static const Text TEXTS[T_COUNT] = {
    [T_BLACK] = {"Black", "黑方"},
    [T_WHITE] = {"White", "白方"},
    [T_BLACK_STONE] = {"black", "黑"},
    [T_WHITE_STONE] = {"white", "白"},
    [T_HUMAN] = {"human", "玩家"},
    [T_COMPUTER] = {"computer ({1})", "电脑（{1}）"},
    [T_LEVEL_MAX] = {"max", "最强"},
    [T_LEVEL_HARD] = {"hard", "困难"},
    [T_LEVEL_MEDIUM] = {"medium", "中等"},
    [T_LEVEL_EASY] = {"easy", "简单"},
    [T_LEVEL_BEGINNER] = {"beginner", "入门"},
    [T_LEVEL_RATING] = {"about {1} above beginner", "比入门级高约{1}分"},
    [T_LEVEL_RATING_BELOW] = {"about {1} below beginner", "比入门级低约{1}分"},
    [T_LEVEL_MCTS] = {"mcts", "蒙特卡洛"},
    [T_LEVEL_ZERO] = {"zero", "自学"},
    [T_RULE_FREESTYLE] = {"freestyle", "无禁手"},
    [T_RULE_STANDARD] = {"standard", "标准五子"},
    [T_RULE_RENJU] = {"renju", "连珠（禁手）"},
    [T_RULE_CARO8] = {"caro8", "caro8"},
    [T_RULE_CARO9] = {"caro9", "caro9"},
    [T_FOUL_OVERLINE] = {"overline", "长连"},
    [T_FOUL_DOUBLE_FOUR] = {"double-four", "四四"},
    [T_FOUL_DOUBLE_THREE] = {"double-three", "三三"},
    [T_HEADER] = {"tengen play: {1} {2}, Black: {3}, White: {4}",
                  "tengen 对局：{1} {2}，黑方：{3}，白方：{4}"},
    [T_MOVE_LINE] = {"move {1}: {2} {3}", "第{1}手：{2} {3}"},
    [T_GAME_OVER] = {"game over: {1}", "对局结束：{1}"},
    [T_TO_MOVE] = {"{1} to move", "轮到{1}"},
    [T_THINKING] = {"{1} is thinking...", "{1}思考中……"},
    [T_PAUSED_LINE] = {"paused, {1} to move", "已暂停，轮到{1}"},
    [T_WIN_FIVE] = {"{1} wins with five in a row ({2}-{3})", "{1}胜：五连（{2}–{3}）"},
    [T_WIN_LONG] = {"{1} wins with {4} in a row ({2}-{3})", "{1}胜：{4}子连（{2}–{3}）"},
    [T_WIN_FOUL] = {"White wins: Black's {1} at {2} is forbidden", "白方胜：黑方{2}为禁手（{1}）"},
    [T_WIN_RESIGN] = {"{1} resigns, {2} wins", "{1}认输，{2}胜"},
    [T_WIN_TIME] = {"{1} ran out of time, {2} wins", "{1}超时，{2}胜"},
    [T_DRAW_FULL] = {"draw: the board is full", "和棋：棋盘已满"},
    [T_DRAW_AGREED] = {"draw by agreement", "和棋：双方同意"},
    [T_DRAW_PASSES] = {"draw: two passes in a row", "和棋：双方连续弃权"},
    [T_ERR_OFF_BOARD] = {"{1} is not on the {2} board", "{1}不在{2}棋盘上"},
    [T_ERR_BAD_INPUT] = {"'{1}' is neither a point nor a command (try h8, or help)",
                         "“{1}”既不是点也不是命令（例如 h8，或输入 help）"},
    [T_ERR_OCCUPIED] = {"{1} is occupied", "{1}已有棋子"},
    [T_ERR_FORBIDDEN] = {"{1} is forbidden for Black ({2})", "{1}是黑方禁手（{2}）"},
    [T_ERR_GAME_OVER] = {"the game is over: undo, or start a new game",
                         "对局已结束：可以悔棋，或开始新对局"},
    [T_ERR_NOT_HUMAN] = {"it is the computer's move", "现在轮到电脑走棋"},
    [T_ERR_REPLAY] = {"replaying a record: 'play' (Enter) plays on from here",
                      "正在回放棋谱：输入 play（或按回车）从此处继续对局"},
    [T_ERR_NOTHING_UNDO] = {"nothing to undo", "没有可以悔的棋"},
    [T_ERR_NOTHING_REDO] = {"nothing to redo", "没有可以恢复的棋"},
    [T_ERR_UNKNOWN_KEY] = {"unknown key: ? lists the keys", "未知按键：按 ? 查看按键"},
    [T_ERR_UNKNOWN_CMD] = {"unknown command '{1}': 'help' lists them",
                           "未知命令“{1}”：输入 help 查看命令"},
    [T_ERR_NOT_THINKING] = {"the computer is not thinking", "电脑没有在思考"},
    [T_ERR_LOAD] = {"cannot load {1}: {2}", "无法载入 {1}：{2}"},
    [T_ERR_SAVE] = {"cannot save {1}: {2}", "无法保存 {1}：{2}"},
    [T_ERR_FORMAT] = {"unknown record format '{1}' (use .psq, .sgf, .txt or .pos)",
                      "未知棋谱格式“{1}”（请用 .psq、.sgf、.txt 或 .pos）"},
    [T_ERR_DRAW_BUSY] = {"the computer is busy: offer a draw on your move",
                         "电脑正忙：请在轮到你时再提和"},
    [T_ERR_NO_HUMAN] = {"only a human player can do that", "只有玩家可以这样做"},
    [T_ERR_NEEDS_ARG] = {"'{1}' needs {2}", "“{1}”需要{2}"},
    [T_ERR_OPTION_VALUE] = {"bad value '{2}' for {1}", "{1} 的值“{2}”无效"},
    [T_ERR_PLAYER_VALUE] = {"unknown player '{2}' for {1}: one of {3}",
                            "{1} 的值“{2}”无效：可选 {3}"},
    [T_A_VALUE] = {"a value", "一个值"},
    [T_ERR_OPTION_UNKNOWN] = {"unknown option '{1}'", "未知选项“{1}”"},
    [T_ERR_ENGINE] = {"engine error: {1}", "引擎错误：{1}"},
    [T_ERR_MEMORY] = {"out of memory", "内存不足"},
    [T_ERR_NOT_REPLAY] = {"not replaying a record", "当前不在回放"},
    [T_ERR_PASS] = {"a pass is not allowed now", "现在不能弃权"},
    [T_ERR_NO_OFFER] = {"no draw offer is waiting", "没有待答复的提和"},
    [T_ERR_NOT_PAUSED] = {"pause first (p), then step", "请先暂停（p）再单步"},
    [T_ERR_NOT_COMPUTER] = {"it is not the computer's move", "现在不是电脑走棋"},
    [T_ERR_PREFIX] = {"error: {1}", "错误：{1}"},
    [T_UNDONE] = {"took back {1} move(s)", "悔棋 {1} 步"},
    [T_UNDONE_RESULT] = {"the result is taken back", "已撤销对局结果"},
    [T_REDONE] = {"replayed {1} move(s)", "恢复 {1} 步"},
    [T_HINT] = {"hint: {1} ({2}), line {3}", "提示：{1}（{2}），变化 {3}"},
    [T_HINT_WAIT] = {"looking for a hint...", "正在计算提示……"},
    [T_DRAW_OFFER] = {"{1} offers a draw: {2}, accept? (y/n)", "{1}提和：{2}是否同意？（y/n）"},
    [T_DRAW_DECLINED] = {"{1} declines the draw", "{1}拒绝和棋"},
    [T_DRAW_THINKING] = {"the computer considers the draw offer...", "电脑正在考虑和棋提议……"},
    [T_SAVED] = {"saved {1}", "已保存 {1}"},
    [T_LOADED] = {"loaded {1}: {2} moves, replaying (play: play on)",
                  "已载入 {1}：共 {2} 手，回放中（play：继续对局）"},
    [T_REPLAY_AT] = {"replay: move {1} of {2}", "回放：第 {1} 手，共 {2} 手"},
    [T_REPLAY_LEFT] = {"playing on from move {1}", "从第 {1} 手继续对局"},
    [T_PAUSED] = {"paused", "已暂停"},
    [T_RESUMED] = {"resumed", "继续"},
    [T_NEW_GAME] = {"new game: {1} {2}, Black {3}, White {4}",
                    "新对局：{1} {2}，黑方 {3}，白方 {4}"},
    [T_MOVE_NOW] = {"moving now", "立即落子"},
    [T_RESIGN_CONFIRM] = {"{1} resigns? (y/n)", "{1}确认认输？（y/n）"},
    [T_QUIT_CONFIRM] = {"Quit the game in progress? It is not saved (s saves it). (y/n)",
                        "退出进行中的对局？对局尚未保存（按 s 保存）。（y/n）"},
    [T_TOO_SMALL] = {"The terminal is {1}x{2}; the {3} board needs at least {4}x{5}. "
                     "Enlarge it, or press q to quit.",
                     "终端为 {1}x{2}；{3} 棋盘至少需要 {4}x{5}。请放大终端，或按 q 退出。"},
    [T_MOVE_NO] = {"move {1}", "第 {1} 手"},
    [T_LAST] = {"last: {1}", "上一手：{1}"},
    [T_DEPTH] = {"depth {1}-{2}  {3}", "深度 {1}-{2}  {3}"},
    [T_NODES] = {"{1} nodes  {2}/s  {3} s", "{1} 节点  {2}/秒  {3} 秒"},
    [T_LINE] = {"line: {1}", "变化：{1}"},
    [T_NO_MOVES] = {"no moves", "尚无着手"},
    [T_REPLAY_TITLE] = {"REPLAY", "回放"},
    [T_HELP_LINE] = {"?:help :type h8 Enter:place u:undo r:redo t:hint d:draw n:new q:quit",
                     "?帮助 :输入 回车落子 u悔棋 r恢复 t提示 d提和 n新局 q退出"},
    [T_HELP_LINE_WATCH] = {"?:help p:pause .:step m:move now u:undo n:new s:save q:quit",
                           "?帮助 p暂停 .单步 m立即落子 u悔棋 n新局 s保存 q退出"},
    [T_HELP_LINE_REPLAY] = {"<- ->:step Home/End:ends Enter:play on from here o:load q:quit",
                            "← →单步 Home/End首尾 回车从此继续 o载入 q退出"},
    [T_HELP_SCREEN] =
        {"Keys\n"
         "  arrows, h j k l   move the cursor\n"
         "  Enter, space      place a stone (or click the point)\n"
         "  :                 type a point (h8) or a command (help lists them)\n"
         "  u  r              undo, redo (against the computer: a move and its reply)\n"
         "  t                 hint: the engine's move, score and line\n"
         "  m, right click    the computer moves now\n"
         "  d                 offer a draw\n"
         "  R                 resign\n"
         "  p  .              pause the computer, step one move\n"
         "  n                 new game (rule, size, players, clock)\n"
         "  s  o              save, load a record (.psq .sgf .txt .pos)\n"
         "  #  f              move numbers, forbidden points (renju)\n"
         "  Ctrl-L            redraw        q  quit\n"
         "Opening: Enter places, offers or selects in the highlighted square; c choose\n"
         "  (stay swap place-two offer), b/w take Black/White, 0-9 declare N, u undo.\n"
         "Replay: <- -> step, Home End first/last, Enter plays on from there.",
         "按键\n"
         "  方向键、h j k l   移动光标\n"
         "  回车、空格        落子（或用鼠标点击）\n"
         "  :                 输入点（如 h8）或命令（help 列出命令）\n"
         "  u  r              悔棋、恢复（对电脑时为你和电脑各一步）\n"
         "  t                 提示：引擎的着法、评分和变化\n"
         "  m、鼠标右键       让电脑立即落子\n"
         "  d                 提和\n"
         "  R                 认输\n"
         "  p  .              暂停电脑、单步\n"
         "  n                 新对局（规则、棋盘、对手、计时）\n"
         "  s  o              保存、载入棋谱（.psq .sgf .txt .pos）\n"
         "  #  f              显示手数、禁手点（连珠）\n"
         "  Ctrl-L            重画          q  退出\n"
         "开局：回车在高亮范围内落子、打点或选择；c 选择（stay swap place-two\n"
         "  offer），b/w 执黑/执白，0-9 声明打点数，u 悔棋。\n"
         "回放：← → 单步，Home End 首尾，回车从此继续对局。"},
    [T_PLAIN_HELP] =
        {"commands: a point (h8) plays it; pass, undo, redo, hint, now, resign,\n"
         "draw, y/n (answer a draw offer), pause, step, save FILE, load FILE,\n"
         "first, prev, next, last, goto N, play (leave replay), new [options],\n"
         "board, moves, help, quit; in an opening: choose stay|swap|place-two|offer,\n"
         "take black|white, declare N, offer POINT, select POINT",
         "命令：输入点（如 h8）落子；pass 弃权、undo 悔棋、redo 恢复、hint 提示、\n"
         "now 立即落子、resign 认输、draw 提和、y/n 答复提和、pause 暂停、step 单步、\n"
         "save 文件 保存、load 文件 载入、first/prev/next/last/goto N 回放、\n"
         "play 继续对局、new [选项] 新对局、board 棋盘、moves 着手、help、quit 退出；\n"
         "开局：choose stay|swap|place-two|offer、take black|white、declare N、\n"
         "offer 点、select 点"},
    [T_MENU_TITLE] = {"New game", "新对局"},
    [T_MENU_RULE] = {"Rule", "规则"},
    [T_MENU_SIZE] = {"Size", "棋盘"},
    [T_MENU_CLOCK] = {"Clock", "计时"},
    [T_MENU_NO_CLOCK] = {"none", "不计时"},
    [T_MENU_START] = {"Start", "开始"},
    [T_MENU_KEYS] = {"up/down: field  left/right: change  Enter: start  Esc: cancel",
                     "上下：选项  左右：修改  回车：开始  Esc：取消"},
    [T_PROMPT] = {"point or command: ", "点或命令："},
    [T_ANY_KEY] = {"(any key closes)", "（按任意键关闭）"},
    [T_PLAYER] = {"Player {1} ({2})", "玩家{1}（{2}）"},
    [T_YOU] = {"you", "你"},
    [T_PLAYER_COLOR] = {"{1} — {2}", "{1}——{2}"},
    [T_HEADER_OPENING] = {"{1} {2}, opening {3}, {4}, {5}", "{1} {2}，开局规则 {3}，{4}，{5}"},
    [T_LIST_SEP] = {", ", "、"},
    [T_HEADER_PLAIN] = {"tengen play: {1}", "tengen 对局：{1}"},
    [T_STEP_PLACE] = {"{1}, {2}: place move {3} ({4}){5}", "{1}，{2}：下第{3}手（{4}）{5}"},
    [T_STEP_PLACE_MANY] = {"{1}, {2}: place move {4} ({5}){6}, {3} stones in a row",
                           "{1}，{2}：下第{4}手（{5}）{6}，连下{3}子"},
    [T_STEP_CENTRE] = {" at the centre", "，下在天元"},
    [T_STEP_SQUARE] = {" in the central {1}x{1}", "，下在中央{1}x{1}内"},
    [T_STEP_CHOOSE] = {"{1}, {2}: choose {3}", "{1}，{2}：请选择 {3}"},
    [T_CHOICE_STAY] = {"stay (keep {1})", "stay（保持{1}）"},
    [T_CHOICE_SWAP] = {"swap (take {1})", "swap（换执{1}）"},
    [T_CHOICE_PLACE_TWO] = {"place-two (two more stones, then the other player chooses)",
                            "place-two（再下两子，由对方选择）"},
    [T_CHOICE_OFFER] = {"offer (ten 5th moves to choose from)", "offer（提供十个第5手打点）"},
    [T_STEP_DECLARE] = {"{1}, {2}: declare how many 5th moves to offer ({3}-{4})",
                        "{1}，{2}：声明第5手打点数（{3}-{4}）"},
    [T_STEP_OFFER] = {"{1}, {2}: offer a 5th move ({3} more, none symmetric)",
                      "{1}，{2}：提供第5手打点（还需{3}个，不得对称）"},
    [T_STEP_SELECT] = {"{1}, {2}: select the 5th move from {3}", "{1}，{2}：从 {3} 中选定第5手"},
    [T_OP_PLACED] = {"opening: {1} places {2} {3}", "开局：{1}下{2} {3}"},
    [T_OP_CHOSE] = {"opening: {1} chooses {2}", "开局：{1}选择{2}"},
    [T_OP_DECLARED] = {"opening: {1} declares {2} offers", "开局：{1}声明{2}个打点"},
    [T_OP_OFFERED] = {"opening: {1} offers {2}", "开局：{1}打点 {2}"},
    [T_OP_SELECTED] = {"opening: {1} selects {2}", "开局：{1}选择第5手 {2}"},
    [T_OP_WHY] = {"(engine: {1})", "（引擎：{1}）"},
    [T_OP_COLOURS] = {"now {1}, {2}", "现在{1}，{2}"},
    [T_OP_DONE] = {"opening over: {1}; {2} to move", "开局结束：{1}；轮到{2}"},
    [T_OP_START] = {"start: {1} {2} {3} ({4})", "开局：{1} {2} {3}（{4}）"},
    [T_OP_BALANCED] = {"balanced start: {1} (score {2} for White)",
                       "均衡开局：{1}（白方评分 {2}）"},
    [T_OP_UNDONE] = {"took back {1} opening action(s)", "撤回开局 {1} 步"},
    [T_OP_THINKING] = {"{1} is deciding the opening...", "{1}正在考虑开局……"},
    [T_OP_LOADED] = {"opening: {1}", "开局：{1}"},
    [T_LOADED_PHASE] = {"loaded {1}: {2} moves, saved during the opening: it goes on",
                        "已载入 {1}：共 {2} 手，保存于开局阶段，继续开局"},
    [T_OP_PLAYERS] = {"players: {1}, {2}", "对局双方：{1}，{2}"},
    [T_OP_NOT_RESTORED] = {"the record's opening is not restored ({1}): loaded as a plain game",
                           "未恢复棋谱中的开局（{1}）：按普通对局载入"},
    [T_OP_MISMATCH] = {"it does not fit the record's moves", "与棋谱的着法不符"},
    [T_ERR_OPENING] = {"{1}", "开局规则不允许：{1}"},
    [T_ERR_IN_OPENING] = {"not during the opening", "开局阶段不能这样做"},
    [T_ERR_NOT_OPENING] = {"there is no opening step now", "现在不在开局阶段"},
    [T_ERR_START_STONES] = {"opening {1} cannot start from three stones (use swap, swap2, "
                            "rif, yamaguchi or soosorv8)",
                            "开局规则 {1} 不能从三子开始（可用 swap、swap2、rif、yamaguchi 或 "
                            "soosorv8）"},
    [T_ERR_SQUARE] = {"this opening needs a square board with an odd size",
                      "此开局需要奇数路的正方形棋盘"},
    [T_ERR_ZERO_MODEL] = {"the zero level's network (--model) is for {1} {2}, not {3} {4}",
                          "自学级别的网络（--model）用于{1} {2}，不能用于{3} {4}"},
    [T_ERR_ZERO_NONE] = {"the zero level has no network model for {1} {2} (built in: {3}; "
                         "--model FILE brings another)",
                         "自学级别没有{1} {2} 的网络模型（内置：{3}；可用 --model FILE 指定）"},
    [T_MENU_OPENING] = {"Opening", "开局规则"},
    [T_MENU_FROM] = {"Start from", "起始局面"},
    [T_MENU_FROM_EMPTY] = {"empty board", "空棋盘"},
    [T_MENU_FROM_RANDOM] = {"random opening", "随机开局"},
    [T_MENU_FROM_BALANCED] = {"balanced", "均衡开局"},
    [T_NEW_GAME_OPENING] = {"new game: {1}", "新对局：{1}"},
    [T_MENU_NO_OPENING] = {"none", "无"},
    [T_MENU_PLAYER1] = {"Player 1", "玩家1"},
    [T_MENU_PLAYER2] = {"Player 2", "玩家2"},
    [T_HELP_LINE_OPENING] = {"Enter:place/offer/select c:choose b/w:take 0-9:declare u:undo ?:help",
                             "回车落子/打点/选择 c选择 b/w执黑/执白 0-9声明 u悔棋 ?帮助"},
};

const char *play_text(PlayLang lang, TextId id) {
    if ((unsigned)id >= T_COUNT) return "?";
    const char *s = lang == LANG_ZH ? TEXTS[id].zh : TEXTS[id].en;
    return s ? s : TEXTS[id].en ? TEXTS[id].en : "?";
}

/// Appends up to n bytes of s at *out, never past end (which keeps room for the NUL).
static void put(char **out, char *end, const char *s, size_t n) {
    size_t room = (size_t)(end - *out);
    if (n > room) n = room;
    memcpy(*out, s, n);
    *out += n;
}

char *play_fill(char *buf, size_t size, const char *tmpl, ...) {
    const char *args[9] = {0};
    va_list ap;
    va_start(ap, tmpl);
    for (int i = 0; i < 9; i++)
        if (!(args[i] = va_arg(ap, const char *))) break;
    va_end(ap);
    if (size == 0) return buf;
    char *out = buf, *end = buf + size - 1;
    for (const char *s = tmpl; *s; s++) {
        if (s[0] == '{' && s[1] >= '1' && s[1] <= '9' && s[2] == '}') {
            const char *a = args[s[1] - '1'];
            if (a) put(&out, end, a, strlen(a));
            s += 2;
        } else {
            put(&out, end, s, 1);
        }
    }
    *out = '\0';
    return buf;
}

/* ---- Language ---- */

PlayLang play_lang_from_env(void) {
    static const char *const VARS[] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"};
    for (size_t i = 0; i < sizeof VARS / sizeof VARS[0]; i++) {
        const char *v = getenv(VARS[i]);
        if (v && *v) return strncmp(v, "zh", 2) == 0 ? LANG_ZH : LANG_EN;
    }
    return LANG_EN;
}

bool play_lang_from_name(const char *name, PlayLang *lang) {
    if (strcmp(name, "en") == 0 || strncmp(name, "en_", 3) == 0) return *lang = LANG_EN, true;
    if (strcmp(name, "zh") == 0 || strncmp(name, "zh_", 3) == 0) return *lang = LANG_ZH, true;
    return false;
}

const char *play_rule_text(PlayLang lang, TgRule rule) {
    static const TextId IDS[TG_RULE_COUNT] = {T_RULE_FREESTYLE, T_RULE_STANDARD, T_RULE_RENJU,
                                              T_RULE_CARO8, T_RULE_CARO9};
    return (unsigned)rule < TG_RULE_COUNT ? play_text(lang, IDS[rule]) : "?";
}

const char *play_level_text(PlayLang lang, TgLevel level) {
    static const TextId IDS[TG_LEVEL_COUNT] = {T_LEVEL_MAX,  T_LEVEL_HARD,     T_LEVEL_MEDIUM,
                                               T_LEVEL_EASY, T_LEVEL_BEGINNER, T_LEVEL_MCTS,
                                               T_LEVEL_ZERO};
    return (unsigned)level < TG_LEVEL_COUNT ? play_text(lang, IDS[level]) : "?";
}

const char *play_rating_text(PlayLang lang, TgLevel level, char *buf, size_t size) {
    int elo;
    if (!tg_level_rating(level, &elo, NULL) || level == TG_LEVEL_BEGINNER) {
        if (size) buf[0] = '\0';
        return buf;
    }
    char number[16];
    snprintf(number, sizeof number, "%d", elo < 0 ? -elo : elo);
    return play_fill(buf, size, play_text(lang, elo < 0 ? T_LEVEL_RATING_BELOW : T_LEVEL_RATING),
                     number, (const char *)NULL);
}

const char *play_color_text(PlayLang lang, TgColor color) {
    return play_text(lang, color == TG_WHITE ? T_WHITE : T_BLACK);
}

const char *play_foul_text(PlayLang lang, TgFoul foul) {
    switch (foul) {
    case TG_FOUL_OVERLINE: return play_text(lang, T_FOUL_OVERLINE);
    case TG_FOUL_DOUBLE_FOUR: return play_text(lang, T_FOUL_DOUBLE_FOUR);
    case TG_FOUL_DOUBLE_THREE: return play_text(lang, T_FOUL_DOUBLE_THREE);
    default: return "";
    }
}

const char *play_side_text(PlayLang lang, PlaySide side, char *buf, size_t size) {
    if (!side.computer) return snprintf(buf, size, "%s", play_text(lang, T_HUMAN)), buf;
    return play_fill(buf, size, play_text(lang, T_COMPUTER), play_level_text(lang, side.level),
                     (const char *)NULL);
}
