/* tests/vision/go_foot_probe.c — a diagnostic over kept Go footage folders (not a test): every
 * frame of each folder read in colour by the Go reader as the daemon reads it (tracking from frame
 * to frame); of the frames without a hand, how many find a board and how many find it right
 * (every grid point the frame shows within half a spacing of the truth's, under the best of the
 * board's eight symmetries; the truth's grid spanned by its four corners, the lens's barrel not
 * modelled). Prints one line per folder with its scene.
 *   go_foot_probe [-e EVERY] DIR...   (EVERY: judge every EVERY-th hand-free frame; all are read)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vision.h"
#include "vision/vision_internal.h"

/* The truth's corners of a frame line, in the grid's order (0,0), (n-1,0), (n-1,n-1), (0,n-1). */
static bool parse_corners(const char *line, double c[4][2])
{
    const char *p = strstr(line, "\"corners\":[[");
    if (!p) return false;
    p += strlen("\"corners\":[");
    for (int k = 0; k < 4; k++) {
        if (sscanf(p, "[%lf,%lf]", &c[k][0], &c[k][1]) != 2) return false;
        p = strchr(p, ']');
        if (!p) return false;
        p += 2; /* "]," */
    }
    return true;
}

/* The worst distance over the grid points inside the w x h frame between the truth's grid and the
 * reader's under the best symmetry; the truth's spacing in *sp. */
static double grid_off(const double tc[4][2], const double oc[4][2], int n, int w, int h,
                       double *sp)
{
    double g[8] = {0, 0, n - 1, 0, n - 1, n - 1, 0, n - 1}, Ht[9], Ho[9];
    if (!hom_fit(g, &tc[0][0], 4, Ht) || !hom_fit(g, &oc[0][0], 4, Ho)) return 1e9;
    double x0, y0, x1, y1, x2, y2, m = (n - 1) / 2.0;
    hom_apply(Ht, m, m, &x0, &y0);
    hom_apply(Ht, m + 1, m, &x1, &y1);
    hom_apply(Ht, m, m + 1, &x2, &y2);
    *sp = (hypot(x1 - x0, y1 - y0) + hypot(x2 - x0, y2 - y0)) / 2;
    double best = 1e9;
    for (int s = 0; s < 8; s++) {
        double worst = 0;
        int seen = 0;
        for (int v = 0; v < n; v++)
            for (int u = 0; u < n; u++) {
                double tx, ty;
                hom_apply(Ht, u, v, &tx, &ty);
                if (tx < 0 || ty < 0 || tx >= w || ty >= h) continue;
                int a = s & 1 ? n - 1 - u : u, b = s & 2 ? n - 1 - v : v;
                if (s & 4) {
                    int t = a;
                    a = b, b = t;
                }
                double ox, oy;
                hom_apply(Ho, a, b, &ox, &oy);
                double d = hypot(ox - tx, oy - ty);
                worst = d > worst ? d : worst;
                seen++;
            }
        if (seen && worst < best) best = worst;
    }
    return best;
}

int main(int argc, char **argv)
{
    int every = 1, first = 1;
    if (argc > 2 && !strcmp(argv[1], "-e")) every = atoi(argv[2]), first = 3;
    if (every < 1) every = 1;
    long all_free = 0, all_found = 0, all_right = 0;
    for (int a = first; a < argc; a++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/truth.jsonl", argv[a]);
        FILE *tf = fopen(path, "r");
        if (!tf) {
            fprintf(stderr, "%s: no truth.jsonl\n", argv[a]);
            continue;
        }
        static char line[1 << 16];
        char scene[64] = "?";
        int n = 19;
        struct vision_detector *det = vision_detector_new();
        struct observation *obs = malloc(sizeof *obs);
        if (!det || !obs) return 1;
        long nfree = 0, found = 0, right = 0, judged = 0, frames = 0;
        double ms = 0;
        while (fgets(line, sizeof line, tf)) {
            if (strstr(line, "\"kind\":\"render\"")) {
                const char *s = strstr(line, "board, ");
                if (s) {
                    s += strlen("board, ");
                    size_t k = strcspn(s, ":");
                    snprintf(scene, sizeof scene, "%.*s", (int)k, s);
                }
                n = strstr(line, "13x13") ? 13 : strstr(line, "9x9") ? 9 : 19;
                det->board_size = n;
                continue;
            }
            int fi;
            const char *fp = strstr(line, "\"frame\":");
            if (!strstr(line, "\"kind\":\"frame\"") || !fp || sscanf(fp, "\"frame\":%d", &fi) != 1)
                continue;
            bool hand = strstr(line, "\"hand\":true") != NULL;
            double tc[4][2];
            bool have = parse_corners(line, tc);
            snprintf(path, sizeof path, "%s/frame_%06d.jpg", argv[a], fi);
            struct vision_image img;
            char err[256];
            if (!vision_load_jpeg(path, false, &img, err, sizeof err)) {
                fprintf(stderr, "%s\n", err);
                break;
            }
            img.t_ns = (int64_t)fi * 1000000000 / 30;
            img.seq = (uint64_t)fi + 1;
            double t0 = vision_now_ms();
            bool ok = vision_read_go(det, &img, obs);
            ms += vision_now_ms() - t0;
            frames++;
            if (!hand && have && nfree++ % every == 0) {
                judged++;
                found += ok;
                double sp = 1;
                if (ok && grid_off(tc, obs->corners, n, img.width, img.height, &sp) < 0.5 * sp)
                    right++;
            }
            free((void *)img.data);
        }
        fclose(tf);
        printf("%s %-8s hand-free frames judged %ld: found %ld (%.1f%%), right %ld (%.1f%%); "
               "%.1f ms a frame over %ld\n",
               argv[a], scene, judged, found, 100.0 * found / (judged ? judged : 1), right,
               100.0 * right / (judged ? judged : 1), ms / (frames ? frames : 1), frames);
        fflush(stdout);
        all_free += judged, all_found += found, all_right += right;
        vision_detector_free(det);
        free(obs);
    }
    printf("all: hand-free frames judged %ld: found %.1f%%, right %.1f%%\n", all_free,
           100.0 * all_found / (all_free ? all_free : 1),
           100.0 * all_right / (all_free ? all_free : 1));
    return 0;
}
