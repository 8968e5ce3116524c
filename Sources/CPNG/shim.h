// libpng for FrameSeek: the simplified API (png_image) reads PNG files back, and one encoder
// on the full API writes them, since the simplified API cannot set the zlib level or the row
// filters, and those decide how long a PNG takes to write.
#ifndef FRAMESEEK_CPNG_SHIM_H
#define FRAMESEEK_CPNG_SHIM_H
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
/// PNG_IMAGE_VERSION, a macro Swift cannot import as a constant of the right type.
static inline png_uint_32 fs_png_image_version(void) { return PNG_IMAGE_VERSION; }
/// PNG_FORMAT_RGB.
static inline png_uint_32 fs_png_format_rgb(void) { return PNG_FORMAT_RGB; }
/// PNG_IMAGE_FAILED(image)
static inline int fs_png_image_failed(png_image image) { return PNG_IMAGE_FAILED(image); }

/// The row filter masks of png_set_filter, which are macros.
static inline int fs_png_filter_none(void) { return PNG_FILTER_NONE; }
static inline int fs_png_filter_sub(void) { return PNG_FILTER_SUB; }
static inline int fs_png_filter_up(void) { return PNG_FILTER_UP; }
static inline int fs_png_filter_avg(void) { return PNG_FILTER_AVG; }
static inline int fs_png_filter_paeth(void) { return PNG_FILTER_PAETH; }
static inline int fs_png_filter_all(void) { return PNG_ALL_FILTERS; }

/// A growing buffer the encoded PNG is written into; `data` is malloc'd (free it with free).
typedef struct fs_png_buffer {
    unsigned char *data;
    size_t size;
    size_t capacity;
    int out_of_memory;
    char message[128];
} fs_png_buffer;

static inline void fs_png_buffer_write(png_structp png, png_bytep bytes, size_t length) {
    fs_png_buffer *buffer = (fs_png_buffer *)png_get_io_ptr(png);
    if (length > buffer->capacity - buffer->size) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity - buffer->size < length) {
            if (capacity > ((size_t)-1) / 2) { buffer->out_of_memory = 1; png_error(png, "PNG larger than memory"); }
            capacity *= 2;
        }
        unsigned char *grown = (unsigned char *)realloc(buffer->data, capacity);
        if (!grown) { buffer->out_of_memory = 1; png_error(png, "out of memory"); }
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->size, bytes, length);
    buffer->size += length;
}

static inline void fs_png_buffer_flush(png_structp png) { (void)png; }

/// libpng's error callback: keeps the message and unwinds to fs_png_encode_rgb's setjmp
/// (libpng aborts the process if an error callback returns).
static inline void fs_png_error(png_structp png, png_const_charp message) {
    fs_png_buffer *buffer = (fs_png_buffer *)png_get_error_ptr(png);
    strncpy(buffer->message, message ? message : "libpng error", sizeof buffer->message - 1);
    buffer->message[sizeof buffer->message - 1] = 0;
    png_longjmp(png, 1);
}

static inline void fs_png_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

/// Encodes `height` rows of `width` RGB pixels of `bit_depth` 8 or 16 (16-bit samples
/// big-endian, PNG's own order), `stride` bytes apart, as a PNG with
/// zlib level `level` (0-9) and the row filters `filters` (PNG_FILTER_* masks), marked sRGB
/// (as the simplified API marks it), into `buffer`, which must start zeroed. Returns 1 on
/// success; on failure 0, with libpng's message in `buffer->message`. Either way the caller
/// frees `buffer->data`. setjmp lives here because Swift cannot call it.
static inline int fs_png_encode_rgb(const unsigned char *pixels, png_uint_32 width, png_uint_32 height, int bit_depth,
                                    size_t stride, int level, int filters, fs_png_buffer *buffer) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, buffer, fs_png_error, fs_png_warning);
    if (!png) { strcpy(buffer->message, "png_create_write_struct failed"); return 0; }
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        strcpy(buffer->message, "png_create_info_struct failed");
        return 0;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return 0;
    }
    png_set_write_fn(png, buffer, fs_png_buffer_write, fs_png_buffer_flush);
    png_set_IHDR(png, info, width, height, bit_depth, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_set_compression_level(png, level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_write_info(png, info);
    for (png_uint_32 row = 0; row < height; row++) {
        png_write_row(png, pixels + (size_t)row * stride);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return 1;
}
#endif
