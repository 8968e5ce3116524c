// The FFmpeg headers FrameSeek uses, and the macros Swift cannot import, as inline functions.
#ifndef FRAMESEEK_CFFMPEG_SHIM_H
#define FRAMESEEK_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/md5.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

/// AVERROR(e): FFmpeg's negative error code for a POSIX errno value.
static inline int fs_averror(int errnum) { return AVERROR(errnum); }
/// AVERROR(EAGAIN): the decoder wants more input or has no output yet.
static inline int fs_averror_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR_EOF: end of file or a fully drained decoder.
static inline int fs_averror_eof(void) { return AVERROR_EOF; }
/// AVERROR_INVALIDDATA: the input is not what the demuxer or decoder expects.
static inline int fs_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
/// AV_NOPTS_VALUE: "no timestamp".
static inline int64_t fs_nopts_value(void) { return AV_NOPTS_VALUE; }
/// AV_TIME_BASE: the microsecond unit of AVFormatContext.start_time and duration.
static inline int fs_time_base(void) { return AV_TIME_BASE; }
/// AV_TIME_BASE_Q as a value (the macro is a compound literal).
static inline AVRational fs_time_base_q(void) { return (AVRational){1, AV_TIME_BASE}; }

#endif
