/* ruleguard/guard_text.c — names of guard events as users and scripts see them, and a fresh
 * event. */
#include <stdio.h>
#include <string.h>

#include "ruleguard/guard.h"

void guard_event_init(struct guard_event *e, enum guard_kind kind, int ply, int64_t t_ns,
                      uint64_t frame_seq)
{
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->ply = ply;
    e->t_ns = t_ns;
    e->frame_seq = frame_seq;
    e->move.color = GO_EMPTY;
    e->move.point = GO_NOPOINT;
}

void guard_event_add_doubt(struct guard_event *e, const char *why)
{
    if (!why || !why[0]) return;
    size_t used = strlen(e->doubt);
    snprintf(e->doubt + used, sizeof e->doubt - used, "%s%s", used ? "; " : "", why);
    used = strlen(e->text);
    snprintf(e->text + used, sizeof e->text - used, " (%s)", why);
}

static const char *const kind_names[GUARD_KIND_COUNT] = {
    [GUARD_MOVE] = "MOVE",
    [GUARD_PASS] = "PASS",
    [GUARD_ILLEGAL_MOVE] = "ILLEGAL_MOVE",
    [GUARD_TWO_MOVES] = "TWO_MOVES",
    [GUARD_MOVED_STONE] = "MOVED_STONE",
    [GUARD_STONE_REMOVED] = "STONE_REMOVED",
    [GUARD_CAPTURE_NOT_REMOVED] = "CAPTURE_NOT_REMOVED",
    [GUARD_HIDDEN_PIECE] = "HIDDEN_PIECE",
    [GUARD_BOARD_DISTURBED] = "BOARD_DISTURBED",
    [GUARD_UNREADABLE] = "UNREADABLE",
    [GUARD_REPETITION] = "REPETITION",
    [GUARD_AFTER_END] = "AFTER_END",
    [GUARD_REFEREE_CALL] = "REFEREE_CALL",
    [GUARD_GAME_END] = "GAME_END",
};

const char *guard_kind_name(enum guard_kind k)
{
    return (unsigned)k < GUARD_KIND_COUNT ? kind_names[k] : "UNKNOWN";
}

bool guard_is_flag(enum guard_kind k)
{
    return k != GUARD_MOVE && k != GUARD_PASS && k != GUARD_GAME_END;
}
