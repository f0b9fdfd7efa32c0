/* capture/capture.h — the capture stage's public header: frames and the sources that make them. */
#ifndef KIFUCAM_CAPTURE_CAPTURE_H
#define KIFUCAM_CAPTURE_CAPTURE_H

#include "capture/frame.h"
#include "capture/source.h"

#endif
