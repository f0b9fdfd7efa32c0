/* render/truth.c — truth.jsonl: one JSON object per line. The first line ("kind":"render")
 * names the record and the scene; then one line per frame ("kind":"frame"): the phase ("play",
 * or "counting" once the counting after the game has begun), the stones on the board (rows from
 * the top, '.' 'X' 'O', joined by '/'), the points a hand hides, the grid's four corners in image
 * pixels (after the lens) and what happened at that frame. Points are [x, y] with x from the left
 * and y from the top, as in SGF. */
#include <stdio.h>

#include "render/render_internal.h"

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

void render_truth_header(FILE *out, const struct render_go *r, const char *record_path,
                         const struct render_sink *sink)
{
    fprintf(out, "{\"kind\":\"render\",\"game\":\"go\",\"record\":");
    json_string(out, record_path ? record_path : "");
    fprintf(out,
            ",\"frames\":%d,\"fps\":30,\"jpeg_quality\":%d,\"scene\":", render_go_frame_count(r),
            render_go_jpeg_quality(r));
    json_string(out, render_go_describe(r));
    if (sink) render_sink_header_json(out, sink);
    struct render_summary sum;
    render_go_summary(r, &sum);
    render_summary_header_json(out, &sum);
    fprintf(out, ",\"position_rows\":\"top to bottom, '.' empty, 'X' black, 'O' white\"}\n");
}

void render_truth_write(FILE *out, const struct render_frame *f)
{
    fprintf(out,
            "{\"kind\":\"frame\",\"frame\":%d,\"t\":%.4f,\"ply\":%d,\"settled\":%s,"
            "\"hand\":%s,\"phase\":\"%s\",\"size\":[%d,%d],\"position\":\"",
            f->index, f->t, f->ply, f->settled ? "true" : "false",
            f->hand_in_view ? "true" : "false", f->counting ? "counting" : "play", f->cols,
            f->rows);
    for (int y = 0; y < f->rows; y++) {
        if (y) fputc('/', out);
        for (int x = 0; x < f->cols; x++) {
            uint8_t s = f->stone[go_point(x, y)];
            fputc(s == GO_BLACK ? 'X' : s == GO_WHITE ? 'O' : '.', out);
        }
    }
    fprintf(out, "\",\"covered\":[");
    int n = 0;
    for (int y = 0; y < f->rows; y++)
        for (int x = 0; x < f->cols; x++)
            if (f->covered[go_point(x, y)]) fprintf(out, "%s[%d,%d]", n++ ? "," : "", x, y);
    fprintf(out, "],\"corners\":[");
    for (int k = 0; k < 4; k++)
        fprintf(out, "%s[%.2f,%.2f]", k ? "," : "", f->corners[k][0], f->corners[k][1]);
    fprintf(out, "],\"off_board\":[");
    for (int k = 0; k < f->noff; k++)
        fprintf(out, "%s{\"color\":\"%s\",\"px\":[%.2f,%.2f]}", k ? "," : "",
                f->off_color[k] == GO_BLACK ? "B" : "W", f->off_px[k][0], f->off_px[k][1]);
    fprintf(out, "],\"corner_inside\":[%s,%s,%s,%s],", f->corner_inside[0] ? "true" : "false",
            f->corner_inside[1] ? "true" : "false", f->corner_inside[2] ? "true" : "false",
            f->corner_inside[3] ? "true" : "false");
    if (f->people_scene) {
        if (f->scene_event)
            fprintf(out, "\"scene_event\":\"%s\",", f->scene_event);
        else
            fprintf(out, "\"scene_event\":null,");
    }
    fprintf(out, "\"events\":[");
    for (int e = 0; e < f->nevents; e++) {
        const struct render_event *ev = &f->events[e];
        fprintf(out, "%s{\"type\":\"%s\",\"ply\":%d", e ? "," : "", ev->kind, ev->ply);
        if (ev->name[0]) fprintf(out, ",\"name\":\"%s\"", ev->name);
        if (ev->point >= 0)
            fprintf(out, ",\"point\":[%d,%d],\"color\":\"%s\"", go_x(ev->point), go_y(ev->point),
                    ev->color == GO_BLACK ? "B" : "W");
        else if (ev->kind[0] == 'p' || ev->kind[0] == 'o' ||
                 (ev->kind[0] == 's' && ev->color != GO_EMPTY))
            fprintf(out, ",\"color\":\"%s\"", ev->color == GO_BLACK ? "B" : "W");
        if (ev->kind[0] == 'b')
            fprintf(out, ",\"dx_mm\":%.2f,\"dy_mm\":%.2f,\"rot_deg\":%.3f", ev->dx_mm, ev->dy_mm,
                    ev->rot_deg);
        fputc('}', out);
    }
    fprintf(out, "]}\n");
}
