/* render/truth_shogi.c — truth.jsonl for shogi. The header line names the record and scene; each
 * frame line gives what physically lies there as an SFEN (board, side to move after the last
 * completed move, the komadai as the hand field, move number), the piece a hand holds, the
 * squares a hand hides (USI names, "7g"), the grid's outer corners and the komadai centres in
 * image pixels, and the events of that frame (faults and signals among them). */
#include <stdio.h>
#include <string.h>

#include "render/render_internal.h"

static void usi_square(int sq, char out[3])
{
    out[0] = (char)('0' + shogi_sq_file(sq));
    out[1] = (char)('a' + shogi_sq_rank(sq) - 1);
    out[2] = '\0';
}

/* USI letter of a piece ("+P" for a tokin), upper case for sente. */
static void usi_piece(int piece, char out[4])
{
    static const char letters[] = "?PLNSBRGK";
    int t = shogi_piece_type(piece);
    int b = shogi_type_base((enum shogi_type)t);
    int n = 0;
    if (shogi_type_is_promoted((enum shogi_type)t)) out[n++] = '+';
    char c = letters[b >= 1 && b <= 8 ? b : 0];
    out[n++] = shogi_piece_color(piece) == SHOGI_SENTE ? c : (char)(c - 'A' + 'a');
    out[n] = '\0';
}

void render_shogi_truth_header(FILE *out, const struct render_shogi *r, const char *record_path,
                               const struct render_sink *sink)
{
    fprintf(out, "{\"kind\":\"render\",\"game\":\"shogi\",\"record\":\"");
    for (const char *s = record_path ? record_path : ""; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', out);
        if ((unsigned char)*s >= 0x20) fputc(*s, out);
    }
    fprintf(out, "\",\"frames\":%d,\"fps\":30,\"jpeg_quality\":%d,\"scene\":\"%s\"",
            render_shogi_frame_count(r), render_shogi_jpeg_quality(r), render_shogi_describe(r));
    if (sink) render_sink_header_json(out, sink);
    struct render_summary sum;
    render_shogi_summary(r, &sum);
    render_summary_header_json(out, &sum);
    fputc(',', out);
    fprintf(out, "\"squares\":\"USI (file 1-9 from sente's right, rank a-i from gote's side)\","
                 "\"corners_order\":\"9a 1a 1i 9i outer grid corners\"}\n");
}

void render_shogi_truth_write(FILE *out, const struct render_shogi_frame *f)
{
    struct shogi_position pos;
    shogi_position_clear(&pos);
    memcpy(pos.board, f->board, sizeof pos.board);
    memcpy(pos.hand, f->hand, sizeof pos.hand);
    pos.side = (uint8_t)f->side;
    pos.ply = f->ply + 1;
    char sfen[SHOGI_SFEN_MAX], name[4];
    shogi_sfen_format(&pos, sfen, sizeof sfen);
    fprintf(out,
            "{\"kind\":\"frame\",\"frame\":%d,\"t\":%.4f,\"ply\":%d,\"settled\":%s,\"hand\":%s,"
            "\"sfen\":\"%s\",\"carried\":",
            f->index, f->t, f->ply, f->settled ? "true" : "false",
            f->hand_in_view ? "true" : "false", sfen);
    if (f->carried) {
        usi_piece(f->carried, name);
        fprintf(out, "\"%s\"", name);
    } else {
        fprintf(out, "null");
    }
    fprintf(out, ",\"covered\":[");
    int n = 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (f->covered[sq]) {
            char s[3];
            usi_square(sq, s);
            fprintf(out, "%s\"%s\"", n++ ? "," : "", s);
        }
    fprintf(out, "],\"komadai_covered\":[%s,%s],\"corners\":[",
            f->komadai_covered[0] ? "true" : "false", f->komadai_covered[1] ? "true" : "false");
    for (int k = 0; k < 4; k++)
        fprintf(out, "%s[%.2f,%.2f]", k ? "," : "", f->corners[k][0], f->corners[k][1]);
    fprintf(out, "],\"corner_inside\":[%s,%s,%s,%s],\"komadai\":[[%.2f,%.2f],[%.2f,%.2f]],",
            f->corner_inside[0] ? "true" : "false", f->corner_inside[1] ? "true" : "false",
            f->corner_inside[2] ? "true" : "false", f->corner_inside[3] ? "true" : "false",
            f->komadai_px[0][0], f->komadai_px[0][1], f->komadai_px[1][0], f->komadai_px[1][1]);
    if (f->people_scene) {
        if (f->scene_event)
            fprintf(out, "\"scene_event\":\"%s\",", f->scene_event);
        else
            fprintf(out, "\"scene_event\":null,");
    }
    fprintf(out, "\"events\":[");
    for (int e = 0; e < f->nevents; e++) {
        const struct render_shogi_event *ev = &f->events[e];
        fprintf(out, "%s{\"type\":\"%s\",\"ply\":%d", e ? "," : "", ev->kind, ev->ply);
        if (ev->name[0]) fprintf(out, ",\"name\":\"%s\"", ev->name);
        if (ev->sq >= 0) {
            char s[3];
            usi_square(ev->sq, s);
            fprintf(out, ",\"square\":\"%s\"", s);
        }
        if (ev->piece) {
            usi_piece(ev->piece, name);
            fprintf(out, ",\"piece\":\"%s\"", name);
        }
        if (ev->color >= 0) fprintf(out, ",\"color\":\"%s\"", ev->color ? "gote" : "sente");
        if (!strcmp(ev->kind, "bump"))
            fprintf(out, ",\"dx_mm\":%.2f,\"dy_mm\":%.2f,\"rot_deg\":%.3f", ev->dx_mm, ev->dy_mm,
                    ev->rot_deg);
        fputc('}', out);
    }
    fprintf(out, "]}\n");
}
