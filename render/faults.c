/* render/faults.c — the names of the faults and signals `kifucam render` can inject, as the
 * command line and the truth's time line spell them. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "render/render.h"
#include "render/render_internal.h"

static const char *const fault_names[] = {
    "same-color", "moved-stone", "removed-stone",  "captures-left", "knocked", "not-in-hand",
    "hidden",     "wrong-way",   "opponent-piece", "ko-retaken",    "suicide", "nifu"};
static const char *const signal_names[] = {"pass", "end", "resign", "counting"};

static const char *bit_name(const char *const *names, int n, unsigned bit)
{
    for (int i = 0; i < n; i++)
        if (bit == 1u << i) return names[i];
    return NULL;
}

const char *render_fault_name(unsigned bit)
{
    return bit_name(fault_names, (int)(sizeof fault_names / sizeof *fault_names), bit);
}

const char *render_signal_name(unsigned bit)
{
    return bit_name(signal_names, (int)(sizeof signal_names / sizeof *signal_names), bit);
}

static bool parse(const char *list, const char *const *names, int n, unsigned *bits, char *err,
                  size_t errlen)
{
    *bits = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *w = strtok_r(buf, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
        int found = -1;
        for (int i = 0; i < n && found < 0; i++)
            if (!strcasecmp(w, names[i])) found = i;
        if (!strcasecmp(w, "all")) {
            *bits |= (1u << n) - 1;
            continue;
        }
        if (found < 0) {
            snprintf(err, errlen, "unknown name '%s'", w);
            return false;
        }
        *bits |= 1u << found;
    }
    return true;
}

bool render_faults_parse(const char *list, unsigned *bits, char *err, size_t errlen)
{
    return parse(list, fault_names, (int)(sizeof fault_names / sizeof *fault_names), bits, err,
                 errlen);
}

bool render_signals_parse(const char *list, unsigned *bits, char *err, size_t errlen)
{
    return parse(list, signal_names, (int)(sizeof signal_names / sizeof *signal_names), bits, err,
                 errlen);
}

void render_summary_begin(struct render_summary *sum)
{
    memset(sum, 0, sizeof *sum);
}

/* While marks come in, faults_unplaced and signals_unplaced hold what was placed and shown. */
void render_summary_mark(struct render_summary *sum, const char *name, bool signal)
{
    unsigned bit = 0;
    char why[64];
    if (signal && render_signals_parse(name, &bit, why, sizeof why)) sum->signals_unplaced |= bit;
    if (!signal && render_faults_parse(name, &bit, why, sizeof why)) sum->faults_unplaced |= bit;
}

void render_summary_end(struct render_summary *sum, const struct render_opts *o, unsigned game_bits)
{
    unsigned placed = sum->faults_unplaced, shown = sum->signals_unplaced;
    sum->faults_other_game = o->faults & ~game_bits;
    sum->faults_unplaced = o->faults & game_bits & ~placed;
    sum->signals_unplaced = o->signals & ~shown;
}
