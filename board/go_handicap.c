/* board/go_handicap.c — fixed handicap points for any board size, placed the way Sabaki does.
 *
 * Corner stars on the 4th line for sides of 13 and more, on the 3rd line below; sides shorter than
 * 7 have none. The order is lower-left, upper-right, lower-right, upper-left (so 3 stones leave
 * the upper-left corner open; GTP's fixed_handicap takes the upper-left instead), then for odd
 * sides the middle of the edges and tengen: 5 and 7 stones add tengen to 4 and 6. A 7-line side
 * has no middle stars (they would touch the corner stars). Sizes that cannot hold n stones have
 * no fixed placement for n. */
#include "board/go.h"

int go_handicap_points(int width, int height, int n, int out[9])
{
    if (n < 2 || n > 9 || width < GO_MIN || height < GO_MIN || width > GO_MAX || height > GO_MAX)
        return 0;
    if (width < 7 || height < 7) return 0;
    int near_x = width >= 13 ? 3 : 2, near_y = height >= 13 ? 3 : 2;
    int far_x = width - 1 - near_x, far_y = height - 1 - near_y;
    int mid_x = (width - 1) / 2, mid_y = (height - 1) / 2;
    bool odd_w = width % 2 == 1 && width != 7, odd_h = height % 2 == 1 && height != 7;

    int pts[9], k = 0;
    pts[k++] = go_point(near_x, far_y);  /* lower left: D4 on 19×19 */
    pts[k++] = go_point(far_x, near_y);  /* upper right: Q16 */
    pts[k++] = go_point(far_x, far_y);   /* lower right: Q4 */
    pts[k++] = go_point(near_x, near_y); /* upper left: D16 */
    if (odd_w && odd_h) {
        if (n == 5) pts[k++] = go_point(mid_x, mid_y);
        pts[k++] = go_point(near_x, mid_y);
        pts[k++] = go_point(far_x, mid_y);
        if (n == 7) pts[k++] = go_point(mid_x, mid_y);
        if (n != 5 && n != 7) {
            pts[k++] = go_point(mid_x, near_y);
            pts[k++] = go_point(mid_x, far_y);
            pts[k++] = go_point(mid_x, mid_y);
        }
    } else if (odd_w) {
        pts[k++] = go_point(mid_x, near_y);
        pts[k++] = go_point(mid_x, far_y);
    } else if (odd_h) {
        pts[k++] = go_point(near_x, mid_y);
        pts[k++] = go_point(far_x, mid_y);
    }
    if (k < n) return 0;
    for (int i = 0; i < n; i++) out[i] = pts[i];
    return n;
}
