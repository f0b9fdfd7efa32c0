/* render/still.c — frames in which nothing moves. With no hand in view and nothing of the people
 * drawn, the drawing of a frame (before the camera's finish, which differs every frame) follows
 * from a few numbers: the board's pose and what lies on it. The drawing is kept with those
 * numbers as its key; a later frame with the same key copies it instead of drawing it again. A
 * game's footage holds many such frames (settled positions, players thinking). */
#include <stdlib.h>
#include <string.h>

#include "render/render_internal.h"

bool still_init(struct still_scene *s, size_t size, int cap)
{
    memset(s, 0, sizeof *s);
    s->size = size;
    s->cap = cap;
    s->rgb = malloc(size);
    s->key = malloc(sizeof *s->key * (size_t)cap);
    s->want = malloc(sizeof *s->want * (size_t)cap);
    return s->rgb && s->key && s->want;
}

void still_free(struct still_scene *s)
{
    free(s->rgb);
    free(s->key);
    free(s->want);
    memset(s, 0, sizeof *s);
}

void still_want_begin(struct still_scene *s)
{
    s->nwant = 0;
}

void still_want(struct still_scene *s, double v)
{
    if (s->nwant < s->cap) s->want[s->nwant] = v;
    s->nwant++; /* past cap: the key is too long to keep, never found */
}

/* Keys compare bit for bit (memcmp), so -0 and 0 differ: nothing is reused that was drawn from
 * other numbers. */
bool still_reuse(const struct still_scene *s, uint8_t *rgb)
{
    if (!s->kept || s->nwant > s->cap || s->nwant != s->nkey ||
        memcmp(s->want, s->key, sizeof *s->key * (size_t)s->nkey) != 0)
        return false;
    memcpy(rgb, s->rgb, s->size);
    return true;
}

void still_keep(struct still_scene *s, const uint8_t *rgb)
{
    if (s->nwant > s->cap) return;
    memcpy(s->key, s->want, sizeof *s->key * (size_t)s->nwant);
    s->nkey = s->nwant;
    memcpy(s->rgb, rgb, s->size);
    s->kept = true;
}
