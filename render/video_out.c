/* render/video_out.c — rendered frames into a video file (MP4 or MKV) through FFmpeg's C libraries:
 * H.264 (libx264 in Debian's libavcodec) when an encoder is there, MJPEG otherwise or on request.
 * Frame i has the presentation time i / fps exactly (time base 1/fps in the codec; the container
 * rescales it), so truth.jsonl's "t" is the time a reader of the video sees. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render_internal.h"

#if KIFUCAM_HAVE_LIBAV
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

struct render_video {
    AVFormatContext *fmt;
    AVCodecContext *enc;
    AVStream *st;
    AVFrame *frm;
    AVPacket *pkt;
    struct SwsContext *sws;
    int width, height, fps;
    bool header_written;
    char codec[16];
};

static void av_fail(char *err, size_t errlen, const char *what, int e)
{
    char buf[128];
    av_strerror(e, buf, sizeof buf);
    snprintf(err, errlen, "%s: %s", what, buf);
}

/* An encoder context for codec, opened; NULL when it cannot work here (a hardware encoder without
 * its device, say). quality 1..100 as for JPEG. */
static AVCodecContext *open_encoder(const AVCodec *codec, int w, int h, int fps, int quality,
                                    bool global_header)
{
    AVCodecContext *c = avcodec_alloc_context3(codec);
    if (!c) return NULL;
    c->width = w;
    c->height = h;
    c->time_base = (AVRational){1, fps};
    c->framerate = (AVRational){fps, 1};
    c->gop_size = 2 * fps;
    c->thread_count = 2; /* the machines that render are small and shared */
    c->color_range = AVCOL_RANGE_MPEG;
    c->colorspace = AVCOL_SPC_BT470BG; /* what swscale's default conversion uses */
    if (codec->id == AV_CODEC_ID_MJPEG) {
        c->pix_fmt = AV_PIX_FMT_YUVJ420P;
        c->color_range = AVCOL_RANGE_JPEG;
        c->flags |= AV_CODEC_FLAG_QSCALE;
        /* JPEG quality 95 -> qscale 2, 70 -> about 6 */
        int q = 2 + (95 - (quality > 95 ? 95 : quality)) / 6;
        c->global_quality = FF_QP2LAMBDA * q;
    } else {
        c->pix_fmt = AV_PIX_FMT_YUV420P;
        /* a phone's or Pi's recording: visually clean, noise partly smoothed away */
        av_opt_set(c->priv_data, "preset", "veryfast", 0);
        av_opt_set(c->priv_data, "crf", "20", 0);
    }
    if (global_header) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (avcodec_open2(c, codec, NULL) < 0) avcodec_free_context(&c);
    return c;
}

struct render_video *render_video_open(const char *path, int width, int height, int fps,
                                       int quality, bool mjpeg, char *err, size_t errlen)
{
    if (width % 2 || height % 2) {
        snprintf(err, errlen, "video frames need an even size (not %dx%d)", width, height);
        return NULL;
    }
    av_log_set_level(AV_LOG_ERROR); /* no encoder chatter on stderr */
    struct render_video *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    v->width = width;
    v->height = height;
    v->fps = fps;
    int r = avformat_alloc_output_context2(&v->fmt, NULL, NULL, path);
    if (r < 0 || !v->fmt) {
        snprintf(err, errlen, "%s: FFmpeg knows no container for this name (use .mp4 or .mkv)",
                 path);
        render_video_close(v, NULL, 0);
        return NULL;
    }
    bool gh = (v->fmt->oformat->flags & AVFMT_GLOBALHEADER) != 0;
    /* H.264 first (libx264 by name, then any other H.264 encoder that opens), MJPEG last */
    const AVCodec *codec = NULL;
    if (!mjpeg) {
        const AVCodec *c264 = avcodec_find_encoder_by_name("libx264");
        if (c264 && (v->enc = open_encoder(c264, width, height, fps, quality, gh))) codec = c264;
        void *it = NULL;
        for (const AVCodec *c; !codec && (c = av_codec_iterate(&it));)
            if (av_codec_is_encoder(c) && c->id == AV_CODEC_ID_H264 &&
                (v->enc = open_encoder(c, width, height, fps, quality, gh)))
                codec = c;
    }
    if (!codec) {
        const AVCodec *cj = avcodec_find_encoder(AV_CODEC_ID_MJPEG);
        if (cj && (v->enc = open_encoder(cj, width, height, fps, quality, gh))) codec = cj;
    }
    if (!codec) {
        snprintf(err, errlen, "this FFmpeg has neither an H.264 nor an MJPEG encoder");
        render_video_close(v, NULL, 0);
        return NULL;
    }
    snprintf(v->codec, sizeof v->codec, "%s", codec->id == AV_CODEC_ID_H264 ? "h264" : "mjpeg");
    if (!(v->st = avformat_new_stream(v->fmt, NULL)) || !(v->frm = av_frame_alloc()) ||
        !(v->pkt = av_packet_alloc())) {
        snprintf(err, errlen, "out of memory");
        render_video_close(v, NULL, 0);
        return NULL;
    }
    v->st->time_base = v->enc->time_base;
    v->st->avg_frame_rate = v->enc->framerate;
    if ((r = avcodec_parameters_from_context(v->st->codecpar, v->enc)) < 0 ||
        (!(v->fmt->oformat->flags & AVFMT_NOFILE) &&
         (r = avio_open(&v->fmt->pb, path, AVIO_FLAG_WRITE)) < 0)) {
        av_fail(err, errlen, path, r);
        render_video_close(v, NULL, 0);
        return NULL;
    }
    /* no creation time or encoder build string that would change the bytes between runs */
    v->fmt->flags |= AVFMT_FLAG_BITEXACT;
    if ((r = avformat_write_header(v->fmt, NULL)) < 0) {
        av_fail(err, errlen, path, r);
        render_video_close(v, NULL, 0);
        return NULL;
    }
    v->header_written = true;
    v->frm->format = v->enc->pix_fmt;
    v->frm->width = width;
    v->frm->height = height;
    v->sws = sws_getContext(width, height, AV_PIX_FMT_RGB24, width, height, v->enc->pix_fmt,
                            SWS_BILINEAR, NULL, NULL, NULL);
    if (!v->sws || av_frame_get_buffer(v->frm, 0) < 0) {
        snprintf(err, errlen, "cannot convert RGB frames to %s",
                 av_get_pix_fmt_name(v->enc->pix_fmt));
        render_video_close(v, NULL, 0);
        return NULL;
    }
    return v;
}

const char *render_video_codec(const struct render_video *v)
{
    return v->codec;
}

double render_video_time(const struct render_video *v, int index)
{
    /* the container's clock, as a reader will see it */
    int64_t ts = av_rescale_q(index, v->enc->time_base, v->st->time_base);
    return ts * av_q2d(v->st->time_base);
}

/* Hand the encoder one frame (NULL: drain) and write out what it gives back. */
static bool encode(struct render_video *v, AVFrame *f, char *err, size_t errlen)
{
    int r = avcodec_send_frame(v->enc, f);
    if (r < 0) {
        av_fail(err, errlen, "video encoder", r);
        return false;
    }
    for (;;) {
        r = avcodec_receive_packet(v->enc, v->pkt);
        if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return true;
        if (r < 0) {
            av_fail(err, errlen, "video encoder", r);
            return false;
        }
        av_packet_rescale_ts(v->pkt, v->enc->time_base, v->st->time_base);
        v->pkt->stream_index = v->st->index;
        r = av_interleaved_write_frame(v->fmt, v->pkt);
        if (r < 0) {
            av_fail(err, errlen, "video file", r);
            return false;
        }
    }
}

bool render_video_write(struct render_video *v, int index, const uint8_t *rgb, char *err,
                        size_t errlen)
{
    if (av_frame_make_writable(v->frm) < 0) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    const uint8_t *src[4] = {rgb, NULL, NULL, NULL};
    int stride[4] = {v->width * 3, 0, 0, 0};
    sws_scale(v->sws, src, stride, 0, v->height, v->frm->data, v->frm->linesize);
    v->frm->pts = index;
    return encode(v, v->frm, err, errlen);
}

bool render_video_close(struct render_video *v, char *err, size_t errlen)
{
    if (!v) return true;
    bool ok = true;
    char dummy[8];
    if (!err) {
        err = dummy;
        errlen = sizeof dummy;
    }
    if (v->header_written) {
        ok = encode(v, NULL, err, errlen);
        int r = av_write_trailer(v->fmt);
        if (ok && r < 0) {
            av_fail(err, errlen, "video file", r);
            ok = false;
        }
    }
    if (v->fmt && !(v->fmt->oformat->flags & AVFMT_NOFILE) && v->fmt->pb &&
        avio_closep(&v->fmt->pb) < 0 && ok) {
        snprintf(err, errlen, "video file: write failed");
        ok = false;
    }
    sws_freeContext(v->sws);
    av_frame_free(&v->frm);
    av_packet_free(&v->pkt);
    avcodec_free_context(&v->enc);
    avformat_free_context(v->fmt);
    free(v);
    return ok;
}

#else

struct render_video *render_video_open(const char *path, int width, int height, int fps,
                                       int quality, bool mjpeg, char *err, size_t errlen)
{
    snprintf(err, errlen,
             "%s: this kifucam was built without FFmpeg (install libavformat-dev libavcodec-dev "
             "libswscale-dev and reconfigure); render JPEG frames instead",
             path);
    return NULL;
}
const char *render_video_codec(const struct render_video *v)
{
    return "";
}
double render_video_time(const struct render_video *v, int index)
{
    return 0;
}
bool render_video_write(struct render_video *v, int index, const uint8_t *rgb, char *err,
                        size_t errlen)
{
    return false;
}
bool render_video_close(struct render_video *v, char *err, size_t errlen)
{
    return true;
}

#endif
