/* board/shogi_handicap.c — the standard start positions (平手 and the 駒落ち). 上手 (gote) always
 * moves first in a handicap game; the pieces come off 上手's side. */
#include <string.h>

#include "board/shogi_internal.h"

#define LOWER "/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"

static const struct shogi_handicap_info table[SHOGI_HC_COUNT] = {
    {SHOGI_HC_EVEN, "平手", "Even", "HIRATE", "lnsgkgsnl/1r5b1" LOWER " b - 1"},
    {SHOGI_HC_LANCE, "香落ち", "Lance", "KY", "lnsgkgsn1/1r5b1" LOWER " w - 1"},
    {SHOGI_HC_LANCE_R, "右香落ち", "Right Lance", "KY_R", "1nsgkgsnl/1r5b1" LOWER " w - 1"},
    {SHOGI_HC_BISHOP, "角落ち", "Bishop", "KA", "lnsgkgsnl/1r7" LOWER " w - 1"},
    {SHOGI_HC_ROOK, "飛車落ち", "Rook", "HI", "lnsgkgsnl/7b1" LOWER " w - 1"},
    {SHOGI_HC_ROOK_LANCE, "飛香落ち", "Rook-Lance", "HIKY", "lnsgkgsn1/7b1" LOWER " w - 1"},
    {SHOGI_HC_2, "二枚落ち", "Two-Piece", "2", "lnsgkgsnl/9" LOWER " w - 1"},
    {SHOGI_HC_3, "三枚落ち", "Three-Piece", "3", "lnsgkgsn1/9" LOWER " w - 1"},
    {SHOGI_HC_4, "四枚落ち", "Four-Piece", "4", "1nsgkgsn1/9" LOWER " w - 1"},
    {SHOGI_HC_5, "五枚落ち", "Five-Piece", "5", "2sgkgsn1/9" LOWER " w - 1"},
    {SHOGI_HC_5_L, "左五枚落ち", "Left Five-Piece", "5_L", "1nsgkgs2/9" LOWER " w - 1"},
    {SHOGI_HC_6, "六枚落ち", "Six-Piece", "6", "2sgkgs2/9" LOWER " w - 1"},
    {SHOGI_HC_7_L, "左七枚落ち", "Left Seven-Piece", "7_L", "2sgkg3/9" LOWER " w - 1"},
    {SHOGI_HC_7_R, "右七枚落ち", "Right Seven-Piece", "7_R", "3gkgs2/9" LOWER " w - 1"},
    {SHOGI_HC_8, "八枚落ち", "Eight-Piece", "8", "3gkg3/9" LOWER " w - 1"},
    {SHOGI_HC_10, "十枚落ち", "Ten-Piece", "10", "4k4/9" LOWER " w - 1"},
};

const struct shogi_handicap_info *shogi_handicap_info(enum shogi_handicap id)
{
    return (unsigned)id < SHOGI_HC_COUNT ? &table[id] : NULL;
}

/* "Two-Piece", "two piece", "2-piece" and "2" all match. */
static bool same_words(const char *a, const char *b)
{
    for (;;) {
        while (*a == ' ' || *a == '-' || *a == '_') a++;
        while (*b == ' ' || *b == '-' || *b == '_') b++;
        if (!*a || !*b) return !*a && !*b;
        char x = *a++, y = *b++;
        if (x >= 'A' && x <= 'Z') x = (char)(x + 32);
        if (y >= 'A' && y <= 'Z') y = (char)(y + 32);
        if (x != y) return false;
    }
}

const struct shogi_handicap_info *shogi_handicap_find(const char *name)
{
    if (!name) return NULL;
    static const struct {
        const char *alias;
        enum shogi_handicap id;
    } aliases[] = {{"hirate", SHOGI_HC_EVEN},     {"even", SHOGI_HC_EVEN},
                   {"平手", SHOGI_HC_EVEN},       {"香車落ち", SHOGI_HC_LANCE},
                   {"左香落ち", SHOGI_HC_LANCE},  {"右香車落ち", SHOGI_HC_LANCE_R},
                   {"角行落ち", SHOGI_HC_BISHOP}, {"飛落ち", SHOGI_HC_ROOK},
                   {"2枚落ち", SHOGI_HC_2},       {"4枚落ち", SHOGI_HC_4},
                   {"6枚落ち", SHOGI_HC_6},       {"8枚落ち", SHOGI_HC_8},
                   {"10枚落ち", SHOGI_HC_10}};
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (!strcmp(name, aliases[i].alias) || same_words(name, aliases[i].alias))
            return &table[aliases[i].id];
    for (int i = 0; i < SHOGI_HC_COUNT; i++)
        if (!strcmp(name, table[i].ja) || same_words(name, table[i].en) ||
            same_words(name, table[i].jkf))
            return &table[i];
    return NULL;
}

bool shogi_handicap_position(enum shogi_handicap id, struct shogi_position *pos)
{
    const struct shogi_handicap_info *h = shogi_handicap_info(id);
    return h && shogi_sfen_parse(pos, h->sfen, NULL, NULL, 0);
}

int shogi_handicap_of(const struct shogi_position *pos)
{
    for (int i = 0; i < SHOGI_HC_COUNT; i++) {
        struct shogi_position p;
        if (shogi_handicap_position((enum shogi_handicap)i, &p) && shogi_position_same(&p, pos))
            return i;
    }
    return -1;
}
