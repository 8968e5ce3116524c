// libpng's simplified API (png_image), which FrameSeek uses to write PNG files.
#ifndef FRAMESEEK_CPNG_SHIM_H
#define FRAMESEEK_CPNG_SHIM_H
#include <png.h>
/// PNG_IMAGE_VERSION, a macro Swift cannot import as a constant of the right type.
static inline png_uint_32 fs_png_image_version(void) { return PNG_IMAGE_VERSION; }
/// PNG_FORMAT_RGB.
static inline png_uint_32 fs_png_format_rgb(void) { return PNG_FORMAT_RGB; }
/// PNG_IMAGE_FAILED(image)
static inline int fs_png_image_failed(png_image image) { return PNG_IMAGE_FAILED(image); }
#endif
