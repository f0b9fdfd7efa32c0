// vision/cv_shim.cpp — implements vision/cv.h over OpenCV core + imgproc. The only C++ file.
// Each verb wraps the caller's memory in cv::Mat headers (no copies) and turns every exception
// into a status plus a per-thread message.
#include "vision/cv.h"

#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

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

extern "C" cv_status cv_to_gray(const cv_image *src, cv_image *dst, int rgb) noexcept
{
    if (!valid(src) || !valid(dst) || dst->channels != 1 || src->width != dst->width ||
        src->height != dst->height) {
        set_error("cv_to_gray: invalid image");
        return CV_EINVAL;
    }
    return guarded("cv_to_gray", [&] {
        cv::Mat s = wrap(src), d = wrap(dst);
        if (src->channels == 1)
            s.copyTo(d);
        else
            cv::cvtColor(s, d, rgb ? cv::COLOR_RGB2GRAY : cv::COLOR_BGR2GRAY);
    });
}

extern "C" cv_status cv_adaptive_threshold_dark(const cv_image *src, cv_image *dst, int block,
                                                double c) noexcept
{
    if (!valid(src) || !valid(dst) || src->channels != 1 || dst->channels != 1 || block < 3 ||
        !(block & 1)) {
        set_error("cv_adaptive_threshold_dark: invalid image or block");
        return CV_EINVAL;
    }
    return guarded("cv_adaptive_threshold_dark", [&] {
        cv::Mat s = wrap(src), d = wrap(dst);
        cv::adaptiveThreshold(s, d, 255, cv::ADAPTIVE_THRESH_MEAN_C, cv::THRESH_BINARY_INV, block,
                              c);
    });
}

extern "C" cv_status cv_canny(const cv_image *src, cv_image *dst, double lo, double hi) noexcept
{
    if (!valid(src) || !valid(dst) || src->channels != 1 || dst->channels != 1) {
        set_error("cv_canny: invalid image");
        return CV_EINVAL;
    }
    return guarded("cv_canny", [&] {
        cv::Mat s = wrap(src), d = wrap(dst);
        cv::Canny(s, d, lo, hi);
    });
}

extern "C" cv_status cv_hough_segments(const cv_image *bin, int votes, double min_len,
                                       double max_gap, float *seg, int max, int *n) noexcept
{
    if (!valid(bin) || bin->channels != 1 || !seg || max < 0 || !n) {
        set_error("cv_hough_segments: invalid arguments");
        return CV_EINVAL;
    }
    *n = 0;
    return guarded("cv_hough_segments", [&] {
        cv::Mat b = wrap(bin);
        std::vector<cv::Vec4i> lines;
        cv::HoughLinesP(b, lines, 1, CV_PI / 180, votes, min_len, max_gap);
        int k = 0;
        for (const cv::Vec4i &l : lines) {
            if (k >= max) break;
            for (int j = 0; j < 4; j++) seg[4 * k + j] = static_cast<float>(l[j]);
            k++;
        }
        *n = k;
    });
}

extern "C" cv_status cv_corner_subpix(const cv_image *gray, float *xy, int n, int half) noexcept
{
    if (!valid(gray) || gray->channels != 1 || (!xy && n > 0) || n < 0 || half < 1) {
        set_error("cv_corner_subpix: invalid arguments");
        return CV_EINVAL;
    }
    if (n == 0) return CV_OK;
    return guarded("cv_corner_subpix", [&] {
        cv::Mat g = wrap(gray);
        std::vector<cv::Point2f> pts(static_cast<size_t>(n));
        for (int i = 0; i < n; i++) pts[i] = cv::Point2f(xy[2 * i], xy[2 * i + 1]);
        cv::cornerSubPix(
            g, pts, cv::Size(half, half), cv::Size(-1, -1),
            cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 20, 0.03));
        for (int i = 0; i < n; i++) {
            xy[2 * i] = pts[i].x;
            xy[2 * i + 1] = pts[i].y;
        }
    });
}

extern "C" cv_status cv_keep_thin(cv_image *bin, int k, int grow) noexcept
{
    if (!valid(bin) || bin->channels != 1 || k < 3 || k > 15 || !(k & 1) || grow < 0 || grow > 8) {
        set_error("cv_keep_thin: invalid image, window or growth");
        return CV_EINVAL;
    }
    return guarded("cv_keep_thin", [&] {
        cv::Mat m = wrap(bin);
        cv::Mat thick;
        cv::morphologyEx(m, thick, cv::MORPH_OPEN,
                         cv::getStructuringElement(cv::MORPH_RECT, cv::Size(k, k)));
        if (grow)
            cv::dilate(
                thick, thick,
                cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2 * grow + 1, 2 * grow + 1)));
        m.setTo(0, thick);
    });
}

extern "C" cv_status cv_median_blur(cv_image *img, int k) noexcept
{
    if (!valid(img) || (k != 3 && k != 5)) {
        set_error("cv_median_blur: invalid image or window");
        return CV_EINVAL;
    }
    return guarded("cv_median_blur", [&] {
        cv::Mat m = wrap(img);
        cv::Mat tmp;
        cv::medianBlur(m, tmp, k);
        tmp.copyTo(m);
    });
}
