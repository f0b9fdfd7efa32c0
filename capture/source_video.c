/* capture/source_video.c — `file:PATH` for compressed videos (MP4, MKV, AVI, MOV: H.264, HEVC,
 * MJPEG, whatever Debian's FFmpeg decodes), through libavformat/libavcodec (C libraries) and
 * libswscale for the conversion to gray or BGR. Phones and action cameras record these; .y4m files
 * are read natively by source_file.c, which hands everything else over to here.
 * Timestamps come from the stream (relative to its first frame), or from opt.fps when given. A
 * packet that does not decode is reported with its frame number and skipped: the next call goes on
 * with the following packets. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/convert.h"
#include "capture/source_impl.h"

#if KIFUCAM_HAVE_LIBAV
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>

struct video_src {
    char *path;
    AVFormatContext *fmt;
    AVCodecContext *dec;
    int stream;
    AVPacket *pkt;
    AVFrame *frm;
    struct SwsContext *sws;
    int sws_w, sws_h, sws_srcfmt;
    struct pixbuf pix;
    double fps;     /* for timestamps when the stream has none, or opt.fps */
    bool fixed_fps; /* opt.fps given: timestamps are seq / fps */
    int64_t pts0;
    bool have_pts0;
    int64_t loop_offset, last_t; /* looping (opt.loop): each pass goes on after the last one */
    uint64_t seq, packets;
    bool flushing, ended;
    struct pacer pacer;
    bool pending;
    struct frame pend;
};

static void video_close(void *impl)
{
    struct video_src *v = impl;
    if (!v) return;
    sws_freeContext(v->sws);
    av_frame_free(&v->frm);
    av_packet_free(&v->pkt);
    avcodec_free_context(&v->dec);
    avformat_close_input(&v->fmt);
    pixbuf_free(&v->pix);
    free(v->path);
    free(v);
}

static const char *av_err(int e, char *buf, size_t len)
{
    av_strerror(e, buf, len);
    return buf;
}

/* Convert the decoded frame into the wanted format and size (the largest 1/2^k shrink that keeps
 * the wanted size, like the other file sources). */
static enum source_status convert(struct frame_source *src, struct video_src *v, struct frame *f)
{
    AVFrame *fr = v->frm;
    int shift = cvt_shrink_shift(fr->width, fr->height, src->opt.width, src->opt.height);
    int ow = fr->width >> shift, oh = fr->height >> shift;
    enum pixfmt fmt = src->opt.fmt;
    int bpp = pixfmt_bytes_per_pixel(fmt);
    if (!v->sws || v->sws_w != fr->width || v->sws_h != fr->height || v->sws_srcfmt != fr->format) {
        sws_freeContext(v->sws);
        v->sws = sws_getContext(fr->width, fr->height, fr->format, ow, oh,
                                fmt == PIXFMT_BGR24 ? AV_PIX_FMT_BGR24 : AV_PIX_FMT_GRAY8, SWS_AREA,
                                NULL, NULL, NULL);
        v->sws_w = fr->width;
        v->sws_h = fr->height;
        v->sws_srcfmt = fr->format;
        if (!v->sws)
            return source_fail(src, "file: %s: frame %llu: cannot convert %dx%d %s", v->path,
                               (unsigned long long)v->seq, fr->width, fr->height,
                               av_get_pix_fmt_name(fr->format) ? av_get_pix_fmt_name(fr->format)
                                                               : "?");
    }
    if (!pixbuf_reserve(&v->pix, (size_t)ow * (size_t)oh * (size_t)bpp))
        return source_fail(src, "file: %s: out of memory", v->path);
    uint8_t *dst[4] = {v->pix.data, NULL, NULL, NULL};
    int dst_stride[4] = {ow * bpp, 0, 0, 0};
    sws_scale(v->sws, (const uint8_t *const *)fr->data, fr->linesize, 0, fr->height, dst,
              dst_stride);
    f->data = v->pix.data;
    f->width = ow;
    f->height = oh;
    f->stride = ow * bpp;
    f->fmt = fmt;
    return SOURCE_FRAME;
}

static int64_t frame_time(struct video_src *v)
{
    int64_t pts = v->frm->best_effort_timestamp;
    if (v->fixed_fps || pts == AV_NOPTS_VALUE)
        return v->last_t = (int64_t)((double)v->seq * 1e9 / v->fps);
    if (!v->have_pts0) {
        v->pts0 = pts;
        v->have_pts0 = true;
    }
    AVRational tb = v->fmt->streams[v->stream]->time_base;
    return v->last_t =
               v->loop_offset + av_rescale_q(pts - v->pts0, tb, (AVRational){1, 1000000000});
}

/* Back to the first frame for the next pass (opt.loop); its times go on one frame period after
 * the last frame's, as a camera's would. false when the file cannot seek. */
static bool rewind_video(struct frame_source *src, struct video_src *v)
{
    AVStream *st = v->fmt->streams[v->stream];
    int64_t start = st->start_time != AV_NOPTS_VALUE ? st->start_time : 0;
    int r = av_seek_frame(v->fmt, v->stream, start, AVSEEK_FLAG_BACKWARD);
    if (r < 0) {
        char eb[128];
        source_fail(src, "file: %s: cannot rewind to loop: %s", v->path, av_err(r, eb, sizeof eb));
        return false;
    }
    avcodec_flush_buffers(v->dec);
    v->flushing = false;
    v->loop_offset = v->last_t + (int64_t)(1e9 / v->fps);
    v->have_pts0 = false;
    return true;
}

/* The next decoded picture: SOURCE_FRAME, SOURCE_END, or SOURCE_ERROR for one bad packet. */
static enum source_status decode_next(struct frame_source *src, struct video_src *v)
{
    char eb[128];
    for (;;) {
        int r = avcodec_receive_frame(v->dec, v->frm);
        if (r == 0) return SOURCE_FRAME;
        if (r == AVERROR_EOF) {
            if (src->opt.loop && v->seq > 0) {
                if (rewind_video(src, v)) continue;
                v->ended = true;
                return SOURCE_ERROR; /* named by rewind_video */
            }
            v->ended = true;
            return SOURCE_END;
        }
        if (r != AVERROR(EAGAIN))
            return source_fail(src, "file: %s: frame %llu: %s", v->path, (unsigned long long)v->seq,
                               av_err(r, eb, sizeof eb));
        if (v->flushing) { /* the decoder wants input it will not get */
            if (src->opt.loop && v->seq > 0) {
                if (rewind_video(src, v)) continue;
                v->ended = true;
                return SOURCE_ERROR; /* named by rewind_video */
            }
            v->ended = true;
            return SOURCE_END;
        }
        r = av_read_frame(v->fmt, v->pkt);
        if (r < 0) {
            /* end of file (or a read error, reported once): drain what the decoder holds */
            v->flushing = true;
            avcodec_send_packet(v->dec, NULL);
            if (r != AVERROR_EOF)
                return source_fail(src, "file: %s: after frame %llu: %s", v->path,
                                   (unsigned long long)v->seq, av_err(r, eb, sizeof eb));
            continue;
        }
        if (v->pkt->stream_index != v->stream) {
            av_packet_unref(v->pkt);
            continue;
        }
        v->packets++;
        r = avcodec_send_packet(v->dec, v->pkt);
        av_packet_unref(v->pkt);
        if (r < 0 && r != AVERROR(EAGAIN))
            return source_fail(src, "file: %s: packet %llu (near frame %llu) does not decode: %s",
                               v->path, (unsigned long long)v->packets, (unsigned long long)v->seq,
                               av_err(r, eb, sizeof eb));
    }
}

static enum source_status video_next(struct frame_source *src, struct frame *out, int timeout_ms)
{
    struct video_src *v = src->impl;
    if (!v->pending) {
        if (v->ended) return SOURCE_END;
        enum source_status st = decode_next(src, v);
        if (st != SOURCE_FRAME) return st;
        struct frame f = {0};
        st = convert(src, v, &f);
        if (st != SOURCE_FRAME) return st;
        f.t_ns = frame_time(v);
        f.seq = v->seq++;
        v->pend = f;
        v->pending = true;
    }
    if (src->opt.realtime && pacer_wait(&v->pacer, v->pend.t_ns, timeout_ms) == SOURCE_TIMEOUT)
        return SOURCE_TIMEOUT;
    v->pending = false;
    *out = v->pend;
    return SOURCE_FRAME;
}

static const struct source_ops video_ops = {video_next, video_close};

int source_video_open(struct frame_source *src, const char *path, char *err, size_t errlen)
{
    char eb[128];
    av_log_set_level(AV_LOG_QUIET); /* errors come back through source_error() */
    struct video_src *v = calloc(1, sizeof *v);
    if (!v || !(v->path = strdup(path))) {
        free(v);
        snprintf(err, errlen, "file: %s: out of memory", path);
        return -1;
    }
    int r = avformat_open_input(&v->fmt, path, NULL, NULL);
    if (r < 0) {
        snprintf(err, errlen, "file: %s: not a video FFmpeg can open: %s", path,
                 av_err(r, eb, sizeof eb));
        video_close(v);
        return -1;
    }
    if ((r = avformat_find_stream_info(v->fmt, NULL)) < 0 ||
        (v->stream = av_find_best_stream(v->fmt, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0)) < 0) {
        snprintf(err, errlen, "file: %s: no video stream: %s", path,
                 av_err(r < 0 ? r : v->stream, eb, sizeof eb));
        video_close(v);
        return -1;
    }
    AVStream *st = v->fmt->streams[v->stream];
    const AVCodec *codec = avcodec_find_decoder(st->codecpar->codec_id);
    if (!codec) {
        snprintf(err, errlen, "file: %s: no decoder for %s video", path,
                 avcodec_get_name(st->codecpar->codec_id));
        video_close(v);
        return -1;
    }
    v->dec = avcodec_alloc_context3(codec);
    v->pkt = av_packet_alloc();
    v->frm = av_frame_alloc();
    if (!v->dec || !v->pkt || !v->frm || avcodec_parameters_to_context(v->dec, st->codecpar) < 0 ||
        (r = avcodec_open2(v->dec, codec, NULL)) < 0) {
        snprintf(err, errlen, "file: %s: cannot open the %s decoder", path, codec->name);
        video_close(v);
        return -1;
    }
    AVRational rate = av_guess_frame_rate(v->fmt, st, NULL);
    v->fps = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : 30.0;
    if (src->opt.fps > 0) {
        v->fps = src->opt.fps;
        v->fixed_fps = true;
    }
    v->pacer.speed = src->opt.speed;
    src->ops = &video_ops;
    src->impl = v;
    return 0;
}

#else

int source_video_open(struct frame_source *src, const char *path, char *err, size_t errlen)
{
    (void)src;
    snprintf(err, errlen,
             "file: %s: not a YUV4MPEG2 (.y4m) video, and this kifucam was built without FFmpeg "
             "(install libavformat-dev libavcodec-dev libswscale-dev and reconfigure)",
             path);
    return -1;
}

#endif
