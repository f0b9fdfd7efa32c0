// capture/source_libcamera.cpp — libcamera behind the C shim in libcamera_shim.h. The project's
// second and last C++ file. Every entry point is noexcept and catches everything.
//
// Builds against Debian 12's libcamera 0.0.3 (compile check; it cannot drive Camera Module 3 or a
// Pi 5) and Raspberry Pi OS's libcamera 0.4-0.7 (what runs on the Pi): the API differences are
// kept to brace-initialised stream roles, range-for over planes, const metadata, and one #if for
// Transform (<= 0.1) versus Orientation (>= 0.2).
//
// Flow (as in libcamera's application guide and simple-cam): CameraManager -> camera -> acquire ->
// configure VideoRecording/YUV420 -> FrameBufferAllocator -> mmap -> one request per buffer ->
// start -> requestCompleted (libcamera's thread: only queue the request and poke the eventfd) ->
// the C side takes the newest request, reads the Y plane, and requeues it.
#include "capture/libcamera_shim.h"

#include <libcamera/libcamera.h>
#include <libcamera/version.h>

#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace libcamera;

namespace
{

struct Mapped {
    uint8_t *plane[3] = {nullptr, nullptr, nullptr};
    unsigned planes = 0;
};

void set_err(char *err, size_t errlen, const std::string &msg)
{
    if (errlen) std::snprintf(err, errlen, "%s", msg.c_str());
}

} // namespace

struct lcam {
    std::unique_ptr<CameraManager> cm;
    std::shared_ptr<Camera> cam;
    std::unique_ptr<CameraConfiguration> cfg;
    std::unique_ptr<FrameBufferAllocator> alloc;
    Stream *stream = nullptr;
    std::vector<std::unique_ptr<Request>> requests;
    std::vector<Mapped> mapped;                   // per request (cookie)
    std::vector<std::pair<void *, size_t>> mmaps; // to unmap
    int efd = -1;
    bool acquired = false, started = false;
    int width = 0, height = 0, stride = 0;

    std::mutex mu; // guards done and failed: libcamera's thread writes, the caller reads
    std::deque<Request *> done;
    std::string failed;

    void complete(Request *req)
    {
        if (req->status() == Request::RequestCancelled) return;
        {
            std::lock_guard<std::mutex> lock(mu);
            done.push_back(req);
        }
        poke();
    }

    void lost()
    {
        {
            std::lock_guard<std::mutex> lock(mu);
            failed = "libcamera: camera disconnected";
        }
        poke();
    }

    void poke()
    {
        uint64_t one = 1;
        ssize_t n = ::write(efd, &one, sizeof one);
        (void)n; // a full counter already wakes the reader
    }

    int map_buffers(std::string &msg)
    {
        const auto &buffers = alloc->buffers(stream);
        for (size_t i = 0; i < buffers.size(); i++) {
            const FrameBuffer *fb = buffers[i].get();
            // Planes usually share one dmabuf at different offsets: map each fd once, long enough
            // for all its planes.
            std::map<int, size_t> span;
            for (const FrameBuffer::Plane &p : fb->planes()) {
                size_t off = p.offset == FrameBuffer::Plane::kInvalidOffset ? 0 : p.offset;
                size_t &len = span[p.fd.get()];
                len = std::max(len, off + p.length);
            }
            std::map<int, uint8_t *> base;
            for (const auto &[fd, len] : span) {
                void *m = ::mmap(nullptr, len, PROT_READ, MAP_SHARED, fd, 0);
                if (m == MAP_FAILED) {
                    msg = std::string("libcamera: cannot map a frame buffer: ") +
                          std::strerror(errno);
                    return -1;
                }
                mmaps.emplace_back(m, len);
                base[fd] = static_cast<uint8_t *>(m);
            }
            Mapped mp;
            for (const FrameBuffer::Plane &p : fb->planes()) {
                if (mp.planes == 3) break;
                size_t off = p.offset == FrameBuffer::Plane::kInvalidOffset ? 0 : p.offset;
                mp.plane[mp.planes++] = base[p.fd.get()] + off;
            }
            mapped.push_back(mp);
        }
        return 0;
    }

    int open(int index, int w, int h, double fps, bool rot180, std::string &msg)
    {
        efd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        if (efd < 0) {
            msg = std::string("libcamera: eventfd: ") + std::strerror(errno);
            return -1;
        }
        cm = std::make_unique<CameraManager>();
        int rc = cm->start();
        if (rc < 0) {
            msg = std::string("libcamera: cannot start the camera manager: ") + std::strerror(-rc);
            cm.reset();
            return -1;
        }
        auto cams = cm->cameras();
        if (cams.empty()) {
            msg = "libcamera: no camera found (libcamera lists 0 cameras; check the camera cable "
                  "and `rpicam-hello --list-cameras` or `cam -l`)";
            return -1;
        }
        if (index < 0 || static_cast<size_t>(index) >= cams.size()) {
            msg = "libcamera: camera " + std::to_string(index) + " not found (" +
                  std::to_string(cams.size()) + " camera(s), numbered from 0)";
            return -1;
        }
        cam = cams[static_cast<size_t>(index)];
        if (cam->acquire() < 0) {
            msg = "libcamera: camera " + cam->id() + " is busy (another program has it?)";
            cam.reset();
            return -1;
        }
        acquired = true;

        cfg = cam->generateConfiguration({StreamRole::VideoRecording});
        if (!cfg || cfg->size() != 1) {
            msg = "libcamera: camera " + cam->id() + " offers no video stream";
            return -1;
        }
        StreamConfiguration &sc = cfg->at(0);
        sc.pixelFormat = formats::YUV420;
        if (w > 0 && h > 0) sc.size = Size(static_cast<unsigned>(w), static_cast<unsigned>(h));
        sc.bufferCount = 4;
#if LIBCAMERA_VERSION_MAJOR > 0 || LIBCAMERA_VERSION_MINOR >= 2
        if (rot180) cfg->orientation = Orientation::Rotate180;
#else
        if (rot180) cfg->transform = Transform::Rot180;
#endif
        if (cfg->validate() == CameraConfiguration::Invalid) {
            msg =
                "libcamera: camera " + cam->id() + " rejects YUV420 video at " + sc.size.toString();
            return -1;
        }
        if (sc.pixelFormat != formats::YUV420) {
            msg = "libcamera: camera " + cam->id() + " cannot give YUV420 (offers " +
                  sc.pixelFormat.toString() + ")";
            return -1;
        }
        if (cam->configure(cfg.get()) < 0) {
            msg = "libcamera: cannot configure camera " + cam->id();
            return -1;
        }
        stream = sc.stream();
        width = static_cast<int>(sc.size.width);
        height = static_cast<int>(sc.size.height);
        stride = static_cast<int>(sc.stride);

        alloc = std::make_unique<FrameBufferAllocator>(cam);
        if (alloc->allocate(stream) < 0) {
            msg = "libcamera: cannot allocate frame buffers";
            return -1;
        }
        if (map_buffers(msg) < 0) return -1;
        const auto &buffers = alloc->buffers(stream);
        for (size_t i = 0; i < buffers.size(); i++) {
            std::unique_ptr<Request> req = cam->createRequest(i);
            if (!req || req->addBuffer(stream, buffers[i].get()) < 0) {
                msg = "libcamera: cannot create a capture request";
                return -1;
            }
            requests.push_back(std::move(req));
        }

        cam->requestCompleted.connect(this, &lcam::complete);
        cam->disconnected.connect(this, &lcam::lost);
        ControlList controls(controls::controls);
        if (fps > 0) {
            int64_t us = static_cast<int64_t>(1e6 / fps + 0.5);
            controls.set(controls::FrameDurationLimits, Span<const int64_t, 2>({us, us}));
        }
        if (cam->start(&controls) < 0) {
            msg = "libcamera: cannot start camera " + cam->id();
            return -1;
        }
        started = true;
        for (auto &req : requests) {
            if (cam->queueRequest(req.get()) < 0) {
                msg = "libcamera: cannot queue a capture request";
                return -1;
            }
        }
        return 0;
    }

    int requeue(Request *req, std::string &msg)
    {
        req->reuse(Request::ReuseBuffers);
        if (cam->queueRequest(req) < 0) {
            msg = "libcamera: cannot requeue a capture request";
            return -1;
        }
        return 0;
    }

    int take(lcam_frame *f, std::string &msg)
    {
        Request *req = nullptr;
        std::vector<Request *> stale;
        {
            std::lock_guard<std::mutex> lock(mu);
            if (!failed.empty()) {
                msg = failed;
                return -1;
            }
            while (done.size() > 1) {
                stale.push_back(done.front());
                done.pop_front();
            }
            if (!done.empty()) {
                req = done.front();
                done.pop_front();
            }
        }
        for (Request *s : stale)
            if (requeue(s, msg) < 0) return -1;
        if (!req) return 0;
        unsigned cookie = static_cast<unsigned>(req->cookie());
        if (req->status() != Request::RequestComplete || cookie >= mapped.size()) {
            requeue(req, msg);
            msg = "libcamera: a frame failed to complete";
            return -1;
        }
        const FrameBuffer *fb = req->buffers().at(stream);
        const Mapped &mp = mapped[cookie];
        f->y = mp.plane[0];
        f->width = width;
        f->height = height;
        f->stride = stride;
        f->uv_stride = stride / 2;
        // One plane holding all three (some pipelines): U and V follow the Y plane.
        f->u = mp.planes >= 3 ? mp.plane[1] : mp.plane[0] + static_cast<size_t>(stride) * height;
        f->v = mp.planes >= 3 ? mp.plane[2]
                              : f->u + static_cast<size_t>(stride / 2) * ((height + 1) / 2);
        f->seq = fb->metadata().sequence;
        f->t_ns = static_cast<int64_t>(fb->metadata().timestamp);
        const ControlList &md = req->metadata();
        if (auto ts = md.get(controls::SensorTimestamp)) f->t_ns = *ts;
        f->cookie = cookie;
        return 1;
    }

    void close()
    {
        if (cam) {
            if (started) cam->stop();
            started = false;
            cam->requestCompleted.disconnect(this, &lcam::complete);
            cam->disconnected.disconnect(this, &lcam::lost);
        }
        for (auto &[p, len] : mmaps) ::munmap(p, len);
        mmaps.clear();
        requests.clear();
        if (alloc && stream) alloc->free(stream);
        alloc.reset();
        cfg.reset();
        if (cam && acquired) cam->release();
        acquired = false;
        cam.reset();
        if (cm) cm->stop();
        cm.reset();
        if (efd >= 0) ::close(efd);
        efd = -1;
    }
};

extern "C" {

struct lcam *lcam_open(int index, int width, int height, double fps, int rotate180, char *err,
                       size_t errlen) noexcept
{
    lcam *c = nullptr;
    try {
        c = new lcam;
        std::string msg;
        if (c->open(index, width, height, fps, rotate180 != 0, msg) == 0) return c;
        set_err(err, errlen, msg);
    } catch (const std::exception &e) {
        set_err(err, errlen, std::string("libcamera: ") + e.what());
    } catch (...) {
        set_err(err, errlen, "libcamera: unknown exception");
    }
    lcam_close(c);
    return nullptr;
}

int lcam_event_fd(const struct lcam *c) noexcept
{
    return c ? c->efd : -1;
}

int lcam_take(struct lcam *c, struct lcam_frame *f, char *err, size_t errlen) noexcept
{
    try {
        std::string msg;
        int rc = c->take(f, msg);
        if (rc < 0) set_err(err, errlen, msg);
        return rc;
    } catch (const std::exception &e) {
        set_err(err, errlen, std::string("libcamera: ") + e.what());
    } catch (...) {
        set_err(err, errlen, "libcamera: unknown exception");
    }
    return -1;
}

int lcam_release(struct lcam *c, unsigned cookie, char *err, size_t errlen) noexcept
{
    try {
        if (cookie >= c->requests.size()) {
            set_err(err, errlen, "libcamera: release of an unknown frame");
            return -1;
        }
        std::string msg;
        if (c->requeue(c->requests[cookie].get(), msg) < 0) {
            set_err(err, errlen, msg);
            return -1;
        }
        return 0;
    } catch (const std::exception &e) {
        set_err(err, errlen, std::string("libcamera: ") + e.what());
    } catch (...) {
        set_err(err, errlen, "libcamera: unknown exception");
    }
    return -1;
}

const char *lcam_version(void) noexcept
{
#define LCAM_STR2(x) #x
#define LCAM_STR(x)  LCAM_STR2(x)
    return LCAM_STR(LIBCAMERA_VERSION_MAJOR) "." LCAM_STR(LIBCAMERA_VERSION_MINOR) "." LCAM_STR(
        LIBCAMERA_VERSION_PATCH);
}

void lcam_close(struct lcam *c) noexcept
{
    if (!c) return;
    try {
        c->close();
    } catch (...) {
        // Nothing sensible left to do while tearing down; the handle is freed regardless.
    }
    delete c;
}

} // extern "C"
