/* vision/read_hands.c — hands are large: occlusion grown along them, stones at a hand's edge
 * not trusted, and points beyond the frame's edge that look like stones not known. */
#include "vision/read_internal.h"

/* A hand reaches in from beyond the board's edge: an occluded region that touches the edge is
 * taken for one from this many points (a glare patch in the middle needs grow_hands' size) */
#define EDGE_REGION 4

static void cover(struct observation *obs, int p)
{
    obs->occluded[p] = true;
    obs->point[p] = OBS_EMPTY;
    obs->conf[p] = 0;
}

/* A stone read at least this sure (observation conf) may stop grow_along */
#define GROW_STONE_CONF 0.75
/* ... when each of its gaps that are not board has at least this many of its three other corner
 * points read as sure stones: one for a black stone, two for a white one. Measured with 1..3
 * for each colour on the 19 labelled photos the reader is tuned on (stones read right 1038 of
 * 1365 before; 1178 with 1 and 1, 1124 with these, 1096 with 2 and 2, 1064 with 3 and 3) and
 * on the renders of seeds 100, 500 and 900 (stones read under hands 1, 14 and 8 before and
 * with these; a white 1 read 3 more on seed 900: pale fingers between white stones) */
#define CROWD_MIN_BLACK 1
#define CROWD_MIN_WHITE 2
/* A washed stone beside a region that is not live (live_regions) is doubted below this
 * neutrality (a white stone's WHITE_NEUTRAL, read_classify.c) */
#define DEAD_WASHED_NEU 0.8
/* ... when its grid lines' cross shows at least this share of an empty point's (read_classify.c's
 * "no lines" bound): a glare on the board leaves the lines, a stone hides them. On the labelled
 * photos the reader is tuned on, the six washed white stones doubted here show -0.10..0.017 of
 * crosses typical 0.15..0.21 (five under a tenth), photo 28's lamp glare 0.048 of 0.34 */
#define DEAD_WASHED_CROSS 0.1

static bool sure_stone(const struct observation *obs, int p)
{
    return !obs->occluded[p] && obs->point[p] != OBS_EMPTY && obs->conf[p] >= GROW_STONE_CONF;
}

/* A stone read sure whose gaps that are not board each lie among other stones read sure: the
 * board hidden between touching stones, not a hand's edge. */
static bool crowded(const struct read_points_f *pf, int n, const struct observation *obs, int p)
{
    static const int dirs[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    if (!sure_stone(obs, p)) return false;
    int x = p % OBS_MAX, y = p / OBS_MAX;
    int need = obs->point[p] == OBS_BLACK ? CROWD_MIN_BLACK : CROWD_MIN_WHITE;
    for (int k = 0; k < 4; k++) {
        if (!(pf->badmask[p] >> k & 1)) continue;
        /* the gap's four corner points: the one at (gx - 1 + j % 2, gy - 1 + j / 2) */
        int gx = x + dirs[k][0], gy = y + dirs[k][1], stones = 0;
        for (int j = 0; j < 4; j++) {
            int qx = gx - 1 + j % 2, qy = gy - 1 + j / 2, q = qy * OBS_MAX + qx;
            if (qx < 0 || qy < 0 || qx >= n || qy >= n || q == p) continue;
            stones += sure_stone(obs, q);
        }
        if (stones < need) return false;
    }
    return true;
}

/* A point with a bad gap next to an occluded point is occluded too, and so on along the hand
 * (an arm reaching in covers a chain of such points). But not a stone in a crowd (crowded): in
 * a crowd of stones the gaps between them show no board, and the chain ran on from stone to
 * stone over whole groups (the labelled photos: 41 lost 138 of its 166 stones, 100 of them to
 * this chain). A hand's own points read as stones are still covered after the chain, beside a
 * region of a hand's size (grow_hands). */
/* live[p]: the occluded point p lies in an 8-connected occluded region holding a point covered
 * where its body reads as no stone (pf->covered_body: skin, a sleeve). A hand shows some of
 * that; a crowd of touching stones whose hidden gaps got some of them covered does not, and a
 * region of those alone grew from stone to stone over whole groups (the labelled photos the
 * reader is tuned on: 128 of the 208 labelled stones lost were grown over, 45 in photo 41,
 * which has no hand; every hand on them holds 3 to 16 such points). Covered stones stay covered,
 * they just do not spread. Only for stills (vision.h still_crowds): a render's hand is often read
 * as no empty point at all (a sleeve a "black stone" with dark gaps, pale fingers white stones
 * beside foreign gaps), and without the chain the renders of seeds 1, 500 and 900 read 16, 97
 * and 26 stones under hands instead of 9, 14 and 8; counting a sleeve's dark gaps and a covered
 * margin as a hand's body, or regions within 3 points of a hand's as its own, still left 15..54
 * (and go_live's 2 games a type 94.3 -> 92.7% moves right). */
static void live_regions(const struct read_points_f *pf, int n, const struct observation *obs,
                         bool *live)
{
    static const int dx[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
    static const int dy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
    int stack[OBS_POINTS], member[OBS_POINTS];
    bool seen[OBS_POINTS] = {0};
    for (int p = 0; p < OBS_POINTS; p++) live[p] = false;
    for (int y0 = 0; y0 < n; y0++)
        for (int x0 = 0; x0 < n; x0++) {
            int p0 = y0 * OBS_MAX + x0;
            if (!obs->occluded[p0] || seen[p0]) continue;
            int sp = 0, cnt = 0;
            bool body = false;
            stack[sp++] = p0;
            seen[p0] = true;
            while (sp) {
                int p = stack[--sp], x = p % OBS_MAX, y = p / OBS_MAX;
                member[cnt++] = p;
                body |= pf->covered_body[p];
                for (int d = 0; d < 8; d++) {
                    int ax = x + dx[d], ay = y + dy[d];
                    if (ax < 0 || ay < 0 || ax >= n || ay >= n) continue;
                    int q = ay * OBS_MAX + ax;
                    if (!obs->occluded[q] || seen[q]) continue;
                    seen[q] = true;
                    stack[sp++] = q;
                }
            }
            for (int k = 0; k < cnt; k++) live[member[k]] = body;
        }
}

static void grow_along(const struct read_points_f *pf, const struct read_thresholds *th, int n,
                       struct observation *obs, bool *live)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                int p = y * OBS_MAX + x;
                if (obs->occluded[p] || pf->badgaps[p] == 0 || th->lines[p]) continue;
                if (crowded(pf, n, obs, p)) continue;
                bool next_to = false, next_dead = false;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int xx = x + dx, yy = y + dy, q = yy * OBS_MAX + xx;
                        if (xx < 0 || yy < 0 || xx >= n || yy >= n || !obs->occluded[q]) continue;
                        next_to |= live[q];
                        next_dead |= !live[q];
                    }
                /* beside a region that is not live only a doubtful stone is covered, and it does
                 * not spread: one read unsure, or a body at the sensor's limit less neutral than
                 * a shell stone (DEAD_WASHED_NEU: a lamp's glare on the board read white, photo
                 * 28, neutrality 0.75, beside the glare's covered points) through which the
                 * lines show (DEAD_WASHED_CROSS) */
                bool lines_show =
                    th->cross_e <= 0 || pf->cross[p] >= DEAD_WASHED_CROSS * th->cross_e;
                if (!next_to && next_dead && obs->point[p] != OBS_EMPTY &&
                    (obs->conf[p] < GROW_STONE_CONF ||
                     (pf->washed[p] && pf->neu[p] < DEAD_WASHED_NEU && lines_show))) {
                    cover(obs, p);
                    continue;
                }
                if (!next_to) continue;
                cover(obs, p);
                live[p] = true;
                changed = true;
            }
    }
}

/* A hand's edge is where a covered point is most easily read as a stone (a knuckle's shadow, a
 * stone half hidden under a finger). A stone read next to an occluded region of a hand's size
 * (min_region points or more, or EDGE_REGION when it reaches the board's edge) is not
 * trusted: it becomes occluded too. Empty points and lone occluded points (a glint) are left
 * as they are, and on stills a sure stone with board in its four gaps (photo 21's two washed
 * white stones beside an arm; it changes no other labelled photo, held out ones included). */
static void grow_hands(const struct read_points_f *pf, bool crowds, struct observation *obs,
                       const bool *live, int n, int min_region)
{
    static const int dx[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
    static const int dy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
    int label[OBS_POINTS], size[OBS_POINTS], stack[OBS_POINTS];
    bool edge[OBS_POINTS];  /* the region reaches the board's edge */
    bool alive[OBS_POINTS]; /* the region is live (live_regions) */
    for (int p = 0; p < OBS_POINTS; p++) label[p] = -1;
    int nl = 0;
    for (int y0 = 0; y0 < n; y0++)
        for (int x0 = 0; x0 < n; x0++) {
            int p0 = y0 * OBS_MAX + x0;
            if (!obs->occluded[p0] || label[p0] >= 0) continue;
            int sp = 0, cnt = 0;
            edge[nl] = false;
            alive[nl] = false;
            stack[sp++] = p0;
            label[p0] = nl;
            while (sp) {
                int p = stack[--sp], x = p % OBS_MAX, y = p / OBS_MAX;
                cnt++;
                alive[nl] |= live[p];
                edge[nl] |= x == 0 || y == 0 || x == n - 1 || y == n - 1;
                for (int d = 0; d < 8; d++) {
                    int ax = x + dx[d], ay = y + dy[d];
                    if (ax < 0 || ay < 0 || ax >= n || ay >= n) continue;
                    int q = ay * OBS_MAX + ax;
                    if (!obs->occluded[q] || label[q] >= 0) continue;
                    label[q] = nl;
                    stack[sp++] = q;
                }
            }
            size[nl++] = cnt;
        }
    bool grow[OBS_POINTS] = {0};
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            if (obs->occluded[p] || obs->point[p] == OBS_EMPTY) continue;
            /* on stills (crowds): a stone read sure whose four gaps all show board stands free
             * of the hand (a finger reaching in passes through a gap) */
            if (crowds && !pf->badgaps[p] && obs->conf[p] >= GROW_STONE_CONF) continue;
            for (int d = 0; d < 8; d++) {
                int ax = x + dx[d], ay = y + dy[d];
                if (ax < 0 || ay < 0 || ax >= n || ay >= n) continue;
                int l = label[ay * OBS_MAX + ax];
                if (l >= 0 && alive[l] &&
                    (size[l] >= min_region || (edge[l] && size[l] >= EDGE_REGION)))
                    grow[p] = true;
            }
        }
    for (int p = 0; p < OBS_POINTS; p++)
        if (grow[p]) cover(obs, p);
}

/* A stone covered for its colour alone (a neutrality bound, a foreign or pale gap beside it: not
 * three gaps hidden, nor a sleeve's dark gaps, nor a covered margin beyond it) in a region that
 * is not live (live_regions) is read as it was, when it was read sure. On the labelled photos
 * the reader is tuned on 57 true stones were covered for their colour alone, 10 still are; a
 * lamp's glare read white was given back too until a glare beside the point kept it covered
 * (pf->covered_val, photo 28) */
static void give_back(const struct read_points_f *pf, int n, const bool *live,
                      struct observation *obs)
{
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            if (!obs->occluded[p] || live[p] || pf->covered_val[p] == OBS_EMPTY ||
                pf->covered_conf[p] < GROW_STONE_CONF || pf->washed[p] || pf->badgaps[p] >= 3 ||
                pf->outer_bad[p] >= 2 || pf->darkgaps[p] >= 2 || pf->outside[p])
                continue;
            obs->occluded[p] = false;
            obs->point[p] = pf->covered_val[p];
            obs->conf[p] = pf->covered_conf[p];
        }
    /* Then a stone covered for three or four gaps that are not board, when every such gap lies
     * among stones read sure (crowded, as its own reading): inside a crowd no gap shows board */
    for (bool changed = true; changed;) {
        changed = false;
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                int p = y * OBS_MAX + x;
                if (!obs->occluded[p] || live[p] || pf->covered_val[p] == OBS_EMPTY ||
                    pf->covered_conf[p] < GROW_STONE_CONF || pf->washed[p] || pf->badgaps[p] < 3 ||
                    pf->outer_bad[p] || pf->darkgaps[p] || pf->foreign[p] || pf->outside[p])
                    continue;
                obs->occluded[p] = false;
                obs->point[p] = pf->covered_val[p];
                obs->conf[p] = pf->covered_conf[p];
                if (!crowded(pf, n, obs, p)) {
                    cover(obs, p);
                    continue;
                }
                changed = true;
            }
    }
}

void hands_grow(const struct read_points_f *pf, const struct read_thresholds *th, int n,
                bool crowds, struct observation *obs)
{
    bool live[OBS_POINTS];
    if (crowds)
        live_regions(pf, n, obs, live);
    else /* every region live: the chain as it was */
        for (int p = 0; p < OBS_POINTS; p++) live[p] = obs->occluded[p];
    grow_along(pf, th, n, obs, live);
    /* fifteen points: measured over 3..15 on the renders, 15 takes the stones read under hands
     * from 18 to 12 of 2509 covered points at no cost; smaller regions (6, 10) take off a few
     * more but mistake glare patches for hands and lose settled points */
    grow_hands(pf, crowds, obs, live, n, 15);
    if (crowds) give_back(pf, n, live, obs);
    /* a point beyond the frame's edge whose clamped sample looks like a stone (a stone cut off
     * by the frame, or not) is not known; nor is it a hand to grow. It is out of the picture,
     * as the points beyond the edge that look like board are (read_classify.c): no evidence for
     * the guard, and no cover that keeps the view from settling (covered, it cost a partial
     * view's settled frames: seed 500's vinyl/partial render 5 of 38 exact) */
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            if (!pf->outside[p] || pf->body_seen[p] || pf->neu[p] < 0.7 ||
                (pf->rho[p] >= th->tb && pf->whiteness[p] <= th->tw))
                continue;
            obs->occluded[p] = false;
            obs->point[p] = OBS_EMPTY;
            obs->conf[p] = OBS_OUT_OF_VIEW_CONF;
        }
}
