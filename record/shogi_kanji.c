/* record/shogi_kanji.c — the Japanese words of shogi records: numerals, piece names, terminal
 * words (投了 …) and the summary line (まで61手で中断). */
#include "record/shogi_record.h"

#include <string.h>

static const char *const fw_digit[10] = {"０", "１", "２", "３", "４",
                                         "５", "６", "７", "８", "９"};
static const char *const kanji_num[10] = {"〇", "一", "二", "三", "四",
                                          "五", "六", "七", "八", "九"};

const char *shogi_kif_digit(int d)
{
    return d >= 0 && d <= 9 ? fw_digit[d] : "?";
}

const char *shogi_kanji_numeral(int d)
{
    return d >= 0 && d <= 9 ? kanji_num[d] : "?";
}

int shogi_kanji_digit(const char **s)
{
    const char *p = *s;
    if (*p >= '1' && *p <= '9') {
        *s = p + 1;
        return *p - '0';
    }
    for (int d = 1; d <= 9; d++) {
        if (shogi_starts_with(p, fw_digit[d])) {
            *s = p + strlen(fw_digit[d]);
            return d;
        }
        if (shogi_starts_with(p, kanji_num[d])) {
            *s = p + strlen(kanji_num[d]);
            return d;
        }
    }
    return 0;
}

/* Values up to 99: "十七" 17, "二" 2, "十" 10, "二十" 20, ASCII or full-width digits "18". */
int shogi_kanji_number(const char **s)
{
    const char *p = *s;
    int v = 0;
    bool any = false;
    /* Arabic digits, ASCII or full-width. */
    for (;;) {
        if (*p >= '0' && *p <= '9') {
            if (v < 100000) v = v * 10 + (*p - '0'); /* a long digit run must not overflow */
            p++;
            any = true;
            continue;
        }
        int d = -1;
        for (int i = 0; i <= 9; i++)
            if (shogi_starts_with(p, fw_digit[i])) d = i;
        if (d < 0) break;
        p += strlen(fw_digit[d]);
        if (v < 100000) v = v * 10 + d;
        any = true;
    }
    if (any) {
        *s = p;
        return v;
    }
    /* Kanji: [d]十[d] or d. */
    int tens = 0, ones = 0;
    const char *q = p;
    int d = shogi_kanji_digit(&q);
    if (d && q != p && (unsigned char)*p >= 0x80) {
        if (shogi_starts_with(q, "十")) {
            tens = d;
            q += strlen("十");
            const char *r = q;
            int o = shogi_kanji_digit(&r);
            if (o && (unsigned char)*q >= 0x80) ones = o, q = r;
        } else {
            ones = d;
        }
    } else if (shogi_starts_with(p, "十")) {
        tens = 1;
        q = p + strlen("十");
        const char *r = q;
        int o = shogi_kanji_digit(&r);
        if (o && (unsigned char)*q >= 0x80) ones = o, q = r;
    } else {
        return 0;
    }
    *s = q;
    return tens * 10 + ones;
}

/* Longest names first so that 成香 is not read as 成 + 香. */
static const struct {
    const char *name;
    enum shogi_type type;
} piece_names[] = {
    {"成香", SHOGI_PRO_LANCE}, {"成桂", SHOGI_PRO_KNIGHT}, {"成銀", SHOGI_PRO_SILVER},
    {"歩", SHOGI_PAWN},        {"香", SHOGI_LANCE},        {"桂", SHOGI_KNIGHT},
    {"銀", SHOGI_SILVER},      {"金", SHOGI_GOLD},         {"角", SHOGI_BISHOP},
    {"飛", SHOGI_ROOK},        {"玉", SHOGI_KING},         {"王", SHOGI_KING},
    {"と", SHOGI_TOKIN},       {"杏", SHOGI_PRO_LANCE},    {"圭", SHOGI_PRO_KNIGHT},
    {"全", SHOGI_PRO_SILVER},  {"馬", SHOGI_HORSE},        {"龍", SHOGI_DRAGON},
    {"竜", SHOGI_DRAGON},      {"个", SHOGI_PRO_LANCE},    {"今", SHOGI_PRO_KNIGHT},
};

enum shogi_type shogi_kanji_piece(const char **s)
{
    for (size_t i = 0; i < sizeof piece_names / sizeof piece_names[0]; i++) {
        if (shogi_starts_with(*s, piece_names[i].name)) {
            *s += strlen(piece_names[i].name);
            return piece_names[i].type;
        }
    }
    return SHOGI_NO_TYPE;
}

const char *shogi_kif_piece_name(enum shogi_type t)
{
    static const char *const names[SHOGI_TYPES] = {"",     "歩",   "香",   "桂", "銀",
                                                   "角",   "飛",   "金",   "玉", "と",
                                                   "成香", "成桂", "成銀", "馬", "龍"};
    return t > SHOGI_NO_TYPE && t < SHOGI_TYPES ? names[t] : "";
}

/* ---- terminal words ------------------------------------------------------------------------ */

static const struct {
    const char *kif, *csa, *jkf;
} end_words[SHOGI_REC_END_COUNT] = {
    [SHOGI_REC_END_NONE] = {"", NULL, NULL},
    [SHOGI_REC_END_RESIGN] = {"投了", "%TORYO", "TORYO"},
    [SHOGI_REC_END_INTERRUPT] = {"中断", "%CHUDAN", "CHUDAN"},
    [SHOGI_REC_END_SENNICHITE] = {"千日手", "%SENNICHITE", "SENNICHITE"},
    [SHOGI_REC_END_JISHOGI] = {"持将棋", "%JISHOGI", "JISHOGI"},
    [SHOGI_REC_END_MATE] = {"詰み", "%TSUMI", "TSUMI"},
    [SHOGI_REC_END_NO_MATE] = {"不詰", "%FUZUMI", "FUZUMI"},
    [SHOGI_REC_END_TIME_UP] = {"切れ負け", "%TIME_UP", "TIME_UP"},
    [SHOGI_REC_END_ILLEGAL_LOSS] = {"反則負け", "%ILLEGAL_MOVE", "ILLEGAL_MOVE"},
    [SHOGI_REC_END_ILLEGAL_WIN] = {"反則勝ち", NULL, NULL}, /* ±ILLEGAL_ACTION by colour */
    [SHOGI_REC_END_DECLARE_WIN] = {"入玉勝ち", "%KACHI", "KACHI"},
    [SHOGI_REC_END_DRAW] = {"引き分け", "%HIKIWAKE", "HIKIWAKE"},
    [SHOGI_REC_END_MAX_MOVES] = {"最大手数", "%MAX_MOVES", "MAX_MOVES"},
    [SHOGI_REC_END_SEALED] = {"封じ手", NULL, NULL},
    [SHOGI_REC_END_DEFAULT_WIN] = {"不戦勝", NULL, NULL},
    [SHOGI_REC_END_DEFAULT_LOSS] = {"不戦敗", NULL, NULL},
    [SHOGI_REC_END_TAKEBACK] = {"待った", "%MATTA", "MATTA"},
    [SHOGI_REC_END_ERROR] = {"エラー", "%ERROR", "ERROR"},
};

const char *shogi_record_end_kif(enum shogi_record_end e)
{
    return e >= 0 && e < SHOGI_REC_END_COUNT ? end_words[e].kif : "";
}
const char *shogi_record_end_csa(enum shogi_record_end e)
{
    return e >= 0 && e < SHOGI_REC_END_COUNT ? end_words[e].csa : NULL;
}
const char *shogi_record_end_jkf(enum shogi_record_end e)
{
    return e >= 0 && e < SHOGI_REC_END_COUNT ? end_words[e].jkf : NULL;
}

enum shogi_record_end shogi_kif_end_word(const char **s)
{
    /* Other spellings seen in real files first. */
    static const struct {
        const char *w;
        enum shogi_record_end e;
    } extra[] = {
        {"詰", SHOGI_REC_END_MATE},
        {"時間切れ", SHOGI_REC_END_TIME_UP},
        {"引分け", SHOGI_REC_END_DRAW},
        {"入玉宣言", SHOGI_REC_END_DECLARE_WIN},
        {"宣言勝ち", SHOGI_REC_END_DECLARE_WIN},
    };
    for (int e = 1; e < SHOGI_REC_END_COUNT; e++) {
        if (shogi_starts_with(*s, end_words[e].kif)) {
            *s += strlen(end_words[e].kif);
            return (enum shogi_record_end)e;
        }
    }
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        if (shogi_starts_with(*s, extra[i].w)) {
            *s += strlen(extra[i].w);
            return extra[i].e;
        }
    }
    return SHOGI_REC_END_NONE;
}

/* "まで172手で後手の勝ち", "まで25手で中断", "まで61手詰", "まで3手で時間切れにより先手の勝ち",
 * "まで2手で先手の反則負け". The terminal line of KI2 files, and a cross-check in KIF. */
enum shogi_record_end shogi_kif_summary_end(const char *line, enum shogi_color to_move)
{
    const char *p = shogi_skip_space(line);
    if (!shogi_starts_with(p, "まで")) return SHOGI_REC_END_NONE;
    p += strlen("まで");
    while (*p >= '0' && *p <= '9') p++;
    if (shogi_starts_with(p, "手")) p += strlen("手");
    if (shogi_starts_with(p, "で")) p += strlen("で");
    if (strstr(p, "時間切れ") || strstr(p, "切れ負け")) return SHOGI_REC_END_TIME_UP;
    if (strstr(p, "反則負け")) return SHOGI_REC_END_ILLEGAL_LOSS;
    if (strstr(p, "反則勝ち")) return SHOGI_REC_END_ILLEGAL_WIN;
    if (strstr(p, "入玉勝ち") || strstr(p, "宣言")) return SHOGI_REC_END_DECLARE_WIN;
    if (strstr(p, "不詰")) return SHOGI_REC_END_NO_MATE;
    if (strstr(p, "詰")) return SHOGI_REC_END_MATE;
    if (strstr(p, "千日手")) return SHOGI_REC_END_SENNICHITE;
    if (strstr(p, "持将棋")) return SHOGI_REC_END_JISHOGI;
    if (strstr(p, "中断")) return SHOGI_REC_END_INTERRUPT;
    if (strstr(p, "封じ手")) return SHOGI_REC_END_SEALED;
    if (strstr(p, "引き分け") || strstr(p, "引分")) return SHOGI_REC_END_DRAW;
    if (strstr(p, "の勝ち")) {
        /* "X の勝ち" after a plain sequence: the side to move resigned. */
        bool sente_won = strstr(p, "先手") || strstr(p, "下手");
        bool gote_won = strstr(p, "後手") || strstr(p, "上手");
        if ((sente_won && to_move == SHOGI_GOTE) || (gote_won && to_move == SHOGI_SENTE))
            return SHOGI_REC_END_RESIGN;
    }
    return SHOGI_REC_END_NONE;
}
