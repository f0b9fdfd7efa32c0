/* render/frame_sink.c — where a render's frames go: JPEG files (frame_NNNNNN.jpg) in the output
 * folder, or, when the options name a video, one video file in that folder instead. Both render
 * paths (Go and shogi) write through here, and the truth header says which it was. */
#include <stdio.h>
#include <string.h>

#include "render/render_internal.h"

bool render_sink_open(struct render_sink *s, const char *dir, const struct render_opts *o,
                      int quality, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->dir = dir;
    s->quality = quality;
    s->fps = o->fps;
    s->truth_only = o->truth_only;
    if (!o->video || o->truth_only) return true; /* truth only: no frames at all */
    if (!o->video[0] || strchr(o->video, '/')) {
        snprintf(err, errlen, "video name '%s': a file name in the output folder, please",
                 o->video);
        return false;
    }
    snprintf(s->video_name, sizeof s->video_name, "%s", o->video);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, o->video);
    s->video =
        render_video_open(path, o->width, o->height, o->fps, quality, o->video_mjpeg, err, errlen);
    if (!s->video) return false;
    snprintf(s->codec, sizeof s->codec, "%s", render_video_codec(s->video));
    return true;
}

bool render_sink_put(struct render_sink *s, int index, const uint8_t *rgb, int width, int height,
                     char *err, size_t errlen)
{
    if (s->truth_only) return true;
    if (s->video) return render_video_write(s->video, index, rgb, err, errlen);
    return render_save_frame(s->dir, index, rgb, width, height, s->quality, err, errlen);
}

double render_sink_time(const struct render_sink *s, int index)
{
    return s->video ? render_video_time(s->video, index) : (double)index / s->fps;
}

void render_sink_header_json(FILE *out, const struct render_sink *s)
{
    if (s->truth_only) /* nothing was drawn: what a hand hides is not known */
        fprintf(out, ",\"frames_as\":null,\"truth_only\":true,\"not_known\":[\"covered\","
                     "\"hand\",\"komadai_covered\",\"scene_event\"]");
    else if (s->video)
        fprintf(out, ",\"video\":\"%s\",\"codec\":\"%s\"", s->video_name, s->codec);
    else
        fprintf(out, ",\"frames_as\":\"frame_%%06d.jpg\"");
}

bool render_sink_close(struct render_sink *s, char *err, size_t errlen)
{
    bool ok = render_video_close(s->video, err, errlen);
    s->video = NULL;
    return ok;
}

/* ---- what a render could not do ---------------------------------------------------------- */

const unsigned render_go_fault_bits = RENDER_FAULT_SAME_COLOR | RENDER_FAULT_MOVED_STONE |
                                      RENDER_FAULT_REMOVED_STONE | RENDER_FAULT_CAPTURES_LEFT |
                                      RENDER_FAULT_KNOCKED | RENDER_FAULT_KO_RETAKEN |
                                      RENDER_FAULT_SUICIDE;
const unsigned render_shogi_fault_bits = RENDER_FAULT_KNOCKED | RENDER_FAULT_NOT_IN_HAND |
                                         RENDER_FAULT_HIDDEN | RENDER_FAULT_WRONG_WAY |
                                         RENDER_FAULT_OPPONENT_PIECE | RENDER_FAULT_NIFU;

static void list_bits(FILE *out, const char *key, unsigned bits, bool signal)
{
    fprintf(out, ",\"%s\":[", key);
    int n = 0;
    for (unsigned b = 1; b && (signal ? render_signal_name(b) : render_fault_name(b)); b <<= 1)
        if (bits & b)
            fprintf(out, "%s\"%s\"", n++ ? "," : "",
                    signal ? render_signal_name(b) : render_fault_name(b));
    fputc(']', out);
}

void render_summary_header_json(FILE *out, const struct render_summary *sum)
{
    list_bits(out, "faults_unplaced", sum->faults_unplaced, false);
    if (sum->faults_other_game) list_bits(out, "faults_other_game", sum->faults_other_game, false);
    if (sum->signals_unplaced) list_bits(out, "signals_unplaced", sum->signals_unplaced, true);
}
