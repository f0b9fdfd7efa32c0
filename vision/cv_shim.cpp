// vision/cv_shim.cpp — implements vision/cv.h over OpenCV core + imgproc. The only C++ file.
// Each verb wraps the caller's memory in cv::Mat headers (no copies) and turns every exception
// into a status plus a per-thread message.
#include "vision/cv.h"

#include <cstdio>
#include <cstring>
#include <new>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace
{

thread_local char last_error[256];

void set_error(const char *what)
{
    std::snprintf(last_error, sizeof last_error, "%s", what);
}

bool valid(const cv_image *im)
{
    return im && im->data && im->width > 0 && im->height > 0 &&
           (im->channels == 1 || im->channels == 3) && im->stride >= im->width * im->channels;
}

cv::Mat wrap(const cv_image *im)
{
    return cv::Mat(im->height, im->width, im->channels == 1 ? CV_8UC1 : CV_8UC3, im->data,
                   static_cast<size_t>(im->stride));
}

cv::Scalar border_of(const uint8_t border[3])
{
    if (!border) return cv::Scalar(0, 0, 0);
    return cv::Scalar(border[0], border[1], border[2]);
}

// Runs f, mapping exceptions to statuses.
template <typename F> cv_status guarded(const char *verb, F f) noexcept
{
    try {
        f();
        last_error[0] = '\0';
        return CV_OK;
    } catch (const cv::Exception &e) {
        std::snprintf(last_error, sizeof last_error, "%s: %s", verb, e.what());
        return CV_ECV;
    } catch (const std::bad_alloc &) {
        std::snprintf(last_error, sizeof last_error, "%s: out of memory", verb);
        return CV_ENOMEM;
    } catch (...) {
        std::snprintf(last_error, sizeof last_error, "%s: unknown C++ exception", verb);
        return CV_ECV;
    }
}

} // namespace

extern "C" const char *cv_last_error(void) noexcept
{
    return last_error;
}

extern "C" cv_status cv_remap(const cv_image *src, cv_image *dst, const float *mapx,
                              const float *mapy, const uint8_t border[3]) noexcept
{
    if (!valid(src) || !valid(dst) || !mapx || !mapy || src->channels != dst->channels) {
        set_error("cv_remap: invalid image or map");
        return CV_EINVAL;
    }
    return guarded("cv_remap", [&] {
        cv::Mat s = wrap(src), d = wrap(dst);
        cv::Mat mx(dst->height, dst->width, CV_32FC1, const_cast<float *>(mapx));
        cv::Mat my(dst->height, dst->width, CV_32FC1, const_cast<float *>(mapy));
        cv::remap(s, d, mx, my, cv::INTER_LINEAR, cv::BORDER_CONSTANT, border_of(border));
    });
}

extern "C" cv_status cv_warp_perspective(const cv_image *src, cv_image *dst, const double H[9],
                                         const uint8_t border[3]) noexcept
{
    if (!valid(src) || !valid(dst) || !H || src->channels != dst->channels) {
        set_error("cv_warp_perspective: invalid image or matrix");
        return CV_EINVAL;
    }
    return guarded("cv_warp_perspective", [&] {
        cv::Mat s = wrap(src), d = wrap(dst);
        cv::Mat h(3, 3, CV_64FC1, const_cast<double *>(H));
        cv::warpPerspective(s, d, h, d.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT,
                            border_of(border));
    });
}

extern "C" cv_status cv_gaussian_blur(cv_image *img, double sigma) noexcept
{
    if (!valid(img)) {
        set_error("cv_gaussian_blur: invalid image");
        return CV_EINVAL;
    }
    if (!(sigma > 0)) return CV_OK;
    return guarded("cv_gaussian_blur", [&] {
        cv::Mat m = wrap(img);
        cv::GaussianBlur(m, m, cv::Size(0, 0), sigma, sigma, cv::BORDER_REPLICATE);
    });
}

extern "C" cv_status cv_resize(const cv_image *src, cv_image *dst) noexcept
{
    if (!valid(src) || !valid(dst) || src->channels != dst->channels) {
        set_error("cv_resize: invalid image");
        return CV_EINVAL;
    }
    return guarded("cv_resize", [&] {
        cv::Mat s = wrap(src), d = wrap(dst);
        bool shrink = dst->width < src->width || dst->height < src->height;
        cv::resize(s, d, d.size(), 0, 0, shrink ? cv::INTER_AREA : cv::INTER_LINEAR);
    });
}
