/* board/go_score.c — counting a final position under a rule set's parameters (board/go.h).
 *
 * Dead stones are taken off first (prisoners for the opponent). Empty regions bordered by one
 * colour only are that colour's; regions touching both colours, or none, are dame.
 *
 * Tax (KataGo's definition, so the KataGo anchors hold): a colour's "blob" is a 4-connected set
 * of its stones and of the empty points it owns. A blob that touches a dame point, or holds a
 * chain in atari, is not independently alive: under GO_TAX_SEKI its territory counts for nobody
 * (seki_points), and under GO_TAX_ALL every other blob also pays 2 points (two eyes' worth).
 * This treats an unfilled dame next to a group like a seki liberty, as a Japanese count does
 * once the dame are filled: fill them first (go_dame_fill) when counting a real board. */
#include "board/go_score_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Marks the blobs that are in seki; returns the number of independent blobs per colour. */
static void find_seki(const struct go_pos *p, const uint8_t owner[GO_POINTS],
                      uint8_t seki[GO_POINTS], int independent[3])
{
    struct go_chains ch;
    int16_t blob[GO_POINTS];
    int stack[GO_POINTS], members[GO_POINTS];
    go_chains_find(p, &ch);
    memset(seki, 0, GO_POINTS);
    for (int i = 0; i < GO_POINTS; i++) blob[i] = -1;
    int nblobs = 0;
    for (int start = 0; start < GO_POINTS; start++) {
        if (!go_pos_on(p, start) || owner[start] == GO_EMPTY || blob[start] != -1) continue;
        uint8_t c = owner[start];
        int sp = 0, nm = 0;
        bool in_seki = false;
        blob[start] = (int16_t)nblobs;
        stack[sp++] = start;
        while (sp > 0) {
            int q = stack[--sp], adj[4], k = go_pos_adj(p, q, adj);
            members[nm++] = q;
            if (p->col[q] == c && ch.libs[ch.of[q]] == 1) in_seki = true;
            for (int j = 0; j < k; j++) {
                int a = adj[j];
                if (p->col[a] == GO_EMPTY && owner[a] == GO_EMPTY) in_seki = true;
                if (owner[a] == c && blob[a] == -1) {
                    blob[a] = (int16_t)nblobs;
                    stack[sp++] = a;
                }
            }
        }
        nblobs++;
        if (in_seki)
            for (int m = 0; m < nm; m++) seki[members[m]] = 1;
        else
            independent[c]++;
    }
}

/* "B+3.5", "W+12", "0". Margins are printed without a trailing ".0". */
static void format_result(char out[16], double margin, bool black_wins_ties)
{
    double m = fabs(margin);
    char num[12];
    if (margin == 0 && !black_wins_ties) {
        snprintf(out, 16, "0");
        return;
    }
    if (m > 99999) m = 99999; /* cannot happen on a 25x25 board; keeps the buffer bounded */
    snprintf(num, sizeof num, "%.2f", m);
    char *dot = strchr(num, '.');
    if (dot) {
        char *end = num + strlen(num) - 1;
        while (end > dot && *end == '0') *end-- = '\0';
        if (end == dot) *end = '\0';
    }
    /* Ing (komi 8, Black wins ties): a drawn count is a win for Black, so the record says so
     * with its true margin, "B+0", rather than "0" (SGF's jigo, which would name no winner). */
    snprintf(out, 16, "%c+%s", margin >= 0 ? 'B' : 'W', num);
}

static int handicap_bonus(const struct go_rules *r, int n)
{
    if (n < 2) return 0; /* one "handicap" stone is just Black's first move without komi */
    switch (r->handicap_bonus) {
    case GO_BONUS_N: return n;
    case GO_BONUS_N_MINUS_1: return n - 1;
    case GO_BONUS_NONE: break;
    }
    return 0;
}

struct go_score go_game_score(const struct go_game *g, const uint8_t *dead)
{
    struct go_score s;
    const struct go_rules *r = go_game_rules(g);
    struct go_pos p;
    struct go_regions rg;
    uint8_t owner[GO_POINTS], seki[GO_POINTS];
    int removed[3] = {0, 0, 0}, independent[3] = {0, 0, 0};

    memset(&s, 0, sizeof s);
    go_pos_load(&p, g);
    for (int pt = 0; pt < GO_POINTS; pt++) {
        if (dead && go_pos_on(&p, pt) && dead[pt] && p.col[pt] != GO_EMPTY) {
            removed[p.col[pt]]++;
            p.col[pt] = GO_EMPTY;
        }
    }
    /* The game's prisoners already hold the pass stones when the rules hand them over. */
    for (int c = GO_BLACK; c <= GO_WHITE; c++)
        s.prisoners[c] =
            go_game_prisoners(g, (enum go_color)c) + removed[go_other((enum go_color)c)];

    go_regions_find(&p, &rg);
    memset(owner, 0, sizeof owner);
    for (int pt = 0; pt < GO_POINTS; pt++) {
        if (!go_pos_on(&p, pt)) continue;
        if (p.col[pt] != GO_EMPTY) {
            owner[pt] = p.col[pt];
            s.stones[p.col[pt]]++;
        } else {
            owner[pt] = (uint8_t)go_region_owner(rg.border[rg.of[pt]]);
            if (owner[pt] == GO_EMPTY) s.dame++;
        }
    }

    if (r->tax == GO_TAX_NONE) {
        memset(seki, 0, sizeof seki);
    } else {
        find_seki(&p, owner, seki, independent);
    }
    for (int pt = 0; pt < GO_POINTS; pt++) {
        if (!go_pos_on(&p, pt) || p.col[pt] != GO_EMPTY || owner[pt] == GO_EMPTY) continue;
        if (seki[pt])
            s.seki_points++;
        else
            s.territory[owner[pt]]++;
    }
    if (r->tax == GO_TAX_ALL)
        for (int c = GO_BLACK; c <= GO_WHITE; c++) s.territory[c] -= 2 * independent[c];

    switch (r->scoring) {
    case GO_SCORE_AREA:
        s.black = s.stones[GO_BLACK] + s.territory[GO_BLACK];
        s.white = s.stones[GO_WHITE] + s.territory[GO_WHITE];
        break;
    case GO_SCORE_TERRITORY:
        s.black = s.territory[GO_BLACK] + s.prisoners[GO_BLACK];
        s.white = s.territory[GO_WHITE] + s.prisoners[GO_WHITE];
        break;
    case GO_SCORE_STONES:
        s.black = s.stones[GO_BLACK];
        s.white = s.stones[GO_WHITE];
        break;
    }
    s.white += r->komi + handicap_bonus(r, go_game_handicap(g));
    s.margin = s.black - s.white;
    format_result(s.result, s.margin, r->black_wins_ties);
    return s;
}
