/* app/check_go.c — feed a Go record's setup and moves to the rule guard, collect its flags, and
 * compare our count of a game ended by passes with the record's result. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app/check_go.h"

#define FALLBACK_RULES "Japanese 1989"

/* Parse an SGF result "B+3.5", "W+R", "0", "Draw", "Jigo". Returns 'B', 'W', '0' for a counted
 * result (margin in *margin, NAN when not given), or 0 when not a count. */
static char parse_counted_result(const char *re, double *margin)
{
    *margin = NAN;
    if (!re) return 0;
    if (!strcmp(re, "0") || !strcasecmp(re, "draw") || !strcasecmp(re, "jigo")) {
        *margin = 0;
        return '0';
    }
    if ((re[0] != 'B' && re[0] != 'W') || re[1] != '+') return 0;
    const char *num = re + 2;
    if (*num == '\0') return re[0];
    char *end;
    double v = strtod(num, &end);
    if (end == num || *end != '\0') return 0; /* B+R, B+T, B+F, B+Illegal... */
    *margin = v;
    return re[0];
}

void check_go_record(const struct go_record *r, const struct go_rules *forced_rules,
                     check_flag_fn on_flag, void *ctx, struct check_go_result *out)
{
    memset(out, 0, sizeof *out);
    const struct go_rules *preset = forced_rules;
    if (!preset && r->rules) {
        preset = go_rules_find(r->rules);
        out->rules_from_record = preset != NULL;
    }
    if (!preset) preset = go_rules_find(FALLBACK_RULES);
    struct go_rules rules = *preset;
    rules.komi = r->komi;
    out->rules_name = preset->name;

    struct go_guard *guard = go_guard_new(r->width, r->height, &rules);
    if (!guard) return;
    struct guard_event ev[GUARD_MAX_EVENTS];
    for (int i = 0; i < r->nnodes; i++) {
        const struct go_record_node *node = &r->nodes[i];
        for (int s = 0; s < node->nsetup; s++)
            go_guard_setup(guard, node->setup[s].color, node->setup[s].point);
        if (i == 0 && r->handicap >= 2) go_guard_set_handicap(guard, r->handicap);
        /* PL[] says who plays next: in a setup node, from now; beside a move, after it. */
        if (node->player != GO_EMPTY && !node->has_move) go_guard_set_to_move(guard, node->player);
        if (!node->has_move) continue;
        out->moves++;
        int n = go_guard_move(guard, node->move, 0, 0, ev);
        for (int k = 0; k < n; k++)
            if (guard_is_flag(ev[k].kind)) {
                out->flags++;
                if (on_flag) on_flag(&ev[k], ctx);
            }
        if (node->player != GO_EMPTY) go_guard_set_to_move(guard, node->player);
    }

    const struct go_game *game = go_guard_game(guard);
    out->ended_by_passes = go_game_state(game) == GO_ENDED_PASSES;
    double margin;
    char winner = parse_counted_result(r->result, &margin);
    out->counted = winner != 0;
    if (out->ended_by_passes && out->counted) {
        uint8_t dead[GO_POINTS];
        go_estimate_dead(game, dead, NULL);
        struct go_score s = go_game_count(game, dead);
        snprintf(out->our_result, sizeof out->our_result, "%s", s.result);
        out->scored = true;
        char ours = s.result[0] == '0' ? '0' : s.result[0];
        out->winner_agrees = ours == winner;
        out->margin_agrees =
            out->winner_agrees && !isnan(margin) && fabs(fabs(s.margin) - margin) < 1e-9;
    }
    go_guard_free(guard);
}
