// The FFmpeg headers FrameSeek uses, the macros Swift cannot import as inline functions, and
// accessors for every field and function FFmpeg 6 and 7 deprecated or removed.
//
// FrameSeek supports FFmpeg 5.1 (Debian 12) to 7.x. Swift code never touches a field whose
// spelling depends on the version: it calls an fs_ accessor below, which picks the newest API
// the headers offer, so the build shows no deprecation warning on any supported version.
// The version numbers are those of FFmpeg's doc/APIchanges, quoted above each accessor.
// scripts/check-ffmpeg7.sh compiles this header and the Swift module against FFmpeg 7.1.
#ifndef FRAMESEEK_CFFMPEG_SHIM_H
#define FRAMESEEK_CFFMPEG_SHIM_H

#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/aes.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/frame.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/intreadwrite.h>
#include <libavutil/log.h>
#include <libavutil/md5.h>
#include <libavutil/sha.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/time.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

// FFmpeg 5.1 is lavu 57.28.100, lavc 59.37.100, lavf 59.27.100. Older releases lack
// AVCodecParameters.ch_layout and AVFrame.time_base, which the Swift code reads.
#if LIBAVUTIL_VERSION_INT < AV_VERSION_INT(57, 28, 100) || LIBAVCODEC_VERSION_INT < AV_VERSION_INT(59, 37, 100)
#error "FrameSeek needs FFmpeg 5.1 or later (libavutil 57.28, libavcodec 59.37)"
#endif

/// AVERROR(e): FFmpeg's negative error code for a POSIX errno value.
static inline int fs_averror(int errnum) { return AVERROR(errnum); }
/// AVERROR(EAGAIN): the decoder wants more input or has no output yet.
static inline int fs_averror_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR_EOF: end of file or a fully drained decoder.
static inline int fs_averror_eof(void) { return AVERROR_EOF; }
/// AVERROR_INVALIDDATA: the input is not what the demuxer or decoder expects.
static inline int fs_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
/// AVERROR_EXTERNAL: a library below FFmpeg (here: swscale) failed without an errno.
static inline int fs_averror_external(void) { return AVERROR_EXTERNAL; }
/// FFmpeg's HTTP status errors (FFERRTAG expressions Swift cannot import): 5xx, 404, other 4xx,
/// 400, 401 and 403.
static inline int fs_averror_http_server_error(void) { return AVERROR_HTTP_SERVER_ERROR; }
static inline int fs_averror_http_not_found(void) { return AVERROR_HTTP_NOT_FOUND; }
static inline int fs_averror_http_other_4xx(void) { return AVERROR_HTTP_OTHER_4XX; }
static inline int fs_averror_http_bad_request(void) { return AVERROR_HTTP_BAD_REQUEST; }
static inline int fs_averror_http_unauthorized(void) { return AVERROR_HTTP_UNAUTHORIZED; }
static inline int fs_averror_http_forbidden(void) { return AVERROR_HTTP_FORBIDDEN; }
/// A wall-clock deadline FFmpeg's I/O polls through `AVIOInterruptCB`: its network protocols
/// check the callback while they wait for a connection or data (every 100 ms), so a server
/// that trickles a byte at a time, which `rw_timeout` never catches, still ends the operation.
/// `at` is `av_gettime_relative()` microseconds; INT64_MAX is "never".
typedef struct fs_deadline { int64_t at; } fs_deadline;
static int fs_deadline_passed(void *opaque) {
    const fs_deadline *deadline = opaque;
    return deadline && av_gettime_relative() >= deadline->at;
}
/// The callback for `deadline`, as `avio_open2` and `AVFormatContext.interrupt_callback` take it.
static inline AVIOInterruptCB fs_deadline_callback(fs_deadline *deadline) {
    AVIOInterruptCB callback = { fs_deadline_passed, deadline };
    return callback;
}
/// AVERROR_EXIT: what an operation the interrupt callback ended returns.
static inline int fs_averror_exit(void) { return AVERROR_EXIT; }
/// AV_NOPTS_VALUE: "no timestamp".
static inline int64_t fs_nopts_value(void) { return AV_NOPTS_VALUE; }
/// AV_TIME_BASE: the microsecond unit of AVFormatContext.start_time and duration.
static inline int fs_time_base(void) { return AV_TIME_BASE; }

// ---- AVFrame ----

/// The frame's duration in its time base, 0 when unknown.
///
/// APIchanges: "2022-07-19 - 4397f9a5a0 - lavu 57.30.100 - frame.h
///   Add AVFrame.duration, deprecate AVFrame.pkt_duration." (FFmpeg 6.0; removed in lavu 59.)
static inline int64_t fs_frame_duration(const AVFrame *frame) {
#if LIBAVUTIL_VERSION_INT >= AV_VERSION_INT(57, 30, 100)
    return frame->duration;
#else
    return frame->pkt_duration;
#endif
}

/// 1 when the decoder marked the frame a keyframe, else 0.
///
/// APIchanges: "2023-05-04 - 0fc9c1f6828 - lavu 58.7.100 - frame.h
///   Deprecate AVFrame.interlaced_frame, AVFrame.top_field_first, and AVFrame.key_frame.
///   Add AV_FRAME_FLAG_INTERLACED, AV_FRAME_FLAG_TOP_FIELD_FIRST, and AV_FRAME_FLAG_KEY
///   flags as replacement." (FFmpeg 6.1)
static inline int fs_frame_is_keyframe(const AVFrame *frame) {
#if LIBAVUTIL_VERSION_INT >= AV_VERSION_INT(58, 7, 100)
    return (frame->flags & AV_FRAME_FLAG_KEY) != 0;
#else
    return frame->key_frame != 0;
#endif
}

// The byte position of the packet a frame was decoded from.
//
// AVFrame.pkt_pos is deprecated during libavutil 58 (libavutil/frame.h: "@deprecated use
// AV_CODEC_FLAG_COPY_OPAQUE to pass through arbitrary user data from packets to frames", under
// FF_API_FRAME_PKT, which libavutil/version.h defines from that version on; APIchanges has no
// line for it) and is gone with lavu 60 (FFmpeg 8). There, the decoder is opened with
// AV_CODEC_FLAG_COPY_OPAQUE, which APIchanges dates "2023-01-29 - a1a80f2e64 - lavc 59.59.100 -
// avcodec.h  Add AV_CODEC_FLAG_COPY_OPAQUE and AV_CODEC_FLAG_FRAME_DURATION." and
// "2023-02-04 - d02340b9e3 - lavc 59.63.100  Allow AV_CODEC_FLAG_COPY_OPAQUE to be used with
// decoders." (FFmpeg 6.0), and each packet carries its position + 1 in AVPacket.opaque, which
// the decoder copies to the frames it produces (0: unknown). Where pointers are narrower than
// 64 bits the position cannot ride along, and frames report -1, "unknown".
#if defined(FF_API_FRAME_PKT) && LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(59, 63, 100) && INTPTR_MAX >= INT64_MAX
#define FS_FRAME_POSITION_VIA_OPAQUE 1
#endif

/// Sets a decoder context up, before avcodec_open2, to carry packet positions to frames.
static inline void fs_codec_context_carry_packet_positions(AVCodecContext *context) {
#if defined(FS_FRAME_POSITION_VIA_OPAQUE)
    context->flags |= AV_CODEC_FLAG_COPY_OPAQUE;
#else
    (void)context;
#endif
}

/// Marks a packet, before it is sent to a decoder, with its position for the frames it makes.
static inline void fs_packet_carry_position(AVPacket *packet) {
#if defined(FS_FRAME_POSITION_VIA_OPAQUE)
    packet->opaque = packet->pos < 0 ? NULL : (void *)(intptr_t)(packet->pos + 1);
#else
    (void)packet;
#endif
}

/// The byte position in the file of the packet the frame was decoded from, or -1 when
/// unknown.
static inline int64_t fs_frame_packet_position(const AVFrame *frame) {
#if defined(FS_FRAME_POSITION_VIA_OPAQUE)
    return (int64_t)(intptr_t)frame->opaque - 1;
#elif defined(FF_API_FRAME_PKT)
    (void)frame;
    return -1;
#else
    return frame->pkt_pos;
#endif
}

/// The samples a packet's AV_PKT_DATA_SKIP_SAMPLES side data tells the decoder to drop: from
/// the start of its frame (`start`, priming) and from the end (`end`, padding). Returns 0 when
/// the packet carries none. The layout (two little-endian 32-bit counts, then two reason
/// bytes) is that of libavcodec/packet.h, unchanged from FFmpeg 5.1 through 7.1.
static inline int fs_packet_skip_samples(const AVPacket *packet, uint32_t *start, uint32_t *end) {
    size_t size = 0;
    const uint8_t *side = av_packet_get_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, &size);
    if (!side || size < 10) return 0;
    *start = AV_RL32(side);
    *end = AV_RL32(side + 4);
    return 1;
}

// ---- AVStream / AVCodecParameters ----

/// The stream's side data of `type` and its size, or NULL when it has none.
///
/// APIchanges: "2023-10-06 - 5432d2aacad - lavc 60.15.100 - avformat.h
///   Deprecate AVFormatContext.{nb_,}side_data, av_stream_add_side_data(),
///   av_stream_new_side_data(), and av_stream_get_side_data(). Side data fields
///   from AVFormatContext.codecpar should be used from now on." (the entry says lavc, but the
///   bump is libavformat's: lavf 60.15.100, FFmpeg 6.1; av_stream_get_side_data is removed in
///   lavf 61, FFmpeg 7.0), with
///   "2023-10-06 - 21d7cc6fa9a - lavc 60.30.100 - codec_par.h
///   Added {nb_,}coded_side_data to AVCodecParameters." and
///   "2023-10-06 - 74279227dd2 - lavc 60.29.100 - packet.h
///   Added av_packet_side_data_new(), av_packet_side_data_add(),
///   av_packet_side_data_get(), av_packet_side_data_remove, and av_packet_side_data_free()."
static inline const uint8_t *fs_stream_side_data(const AVStream *stream, enum AVPacketSideDataType type, size_t *size) {
#if LIBAVFORMAT_VERSION_INT >= AV_VERSION_INT(60, 15, 100) && LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 30, 100)
    const AVPacketSideData *side = av_packet_side_data_get(stream->codecpar->coded_side_data,
                                                           stream->codecpar->nb_coded_side_data, type);
    if (side == NULL) return NULL;
    *size = side->size;
    return side->data;
#else
    return av_stream_get_side_data(stream, type, size);
#endif
}

/// The stream's display matrix (nine int32_t, libavutil/display.h), or NULL when it has none.
static inline const int32_t *fs_stream_display_matrix(const AVStream *stream) {
    size_t size = 0;
    const uint8_t *data = fs_stream_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (data == NULL || size < 9 * sizeof(int32_t)) return NULL;
    return (const int32_t *)data;
}

/// The stream's mastering display (SMPTE ST 2086), or NULL when the container has none.
static inline const AVMasteringDisplayMetadata *fs_stream_mastering_display(const AVStream *stream) {
    size_t size = 0;
    const uint8_t *data = fs_stream_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, &size);
    if (data == NULL || size < sizeof(AVMasteringDisplayMetadata)) return NULL;
    return (const AVMasteringDisplayMetadata *)data;
}

/// The stream's content light level (MaxCLL, MaxFALL), or NULL when the container has none.
static inline const AVContentLightMetadata *fs_stream_content_light(const AVStream *stream) {
    size_t size = 0;
    const uint8_t *data = fs_stream_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, &size);
    if (data == NULL || size < sizeof(AVContentLightMetadata)) return NULL;
    return (const AVContentLightMetadata *)data;
}

/// The stream's Dolby Vision configuration record, or NULL when the container has none.
static inline const AVDOVIDecoderConfigurationRecord *fs_stream_dovi_configuration(const AVStream *stream) {
    size_t size = 0;
    const uint8_t *data = fs_stream_side_data(stream, AV_PKT_DATA_DOVI_CONF, &size);
    if (data == NULL || size < sizeof(AVDOVIDecoderConfigurationRecord)) return NULL;
    return (const AVDOVIDecoderConfigurationRecord *)data;
}

/// The number of audio channels, 0 when unknown.
///
/// APIchanges: "2022-03-15 - cdba98bb80 - lavc 59.24.100 - avcodec.h codec_par.h
///   Update AVCodecParameters for the new channel layout API: add ch_layout,
///   deprecate channels/channel_layout." Every supported release has ch_layout; the
///   accessor keeps the one place to change should that move again.
static inline int fs_codecpar_channels(const AVCodecParameters *parameters) {
    return parameters->ch_layout.nb_channels;
}

// ---- Logging ----

/// The AVClass of a logging context (its first member), or NULL.
///
/// av_log's `avcl` argument points at a struct whose first member is a `const AVClass *`.
static inline const AVClass *fs_log_context_class(void *avcl) {
    return avcl == NULL ? NULL : *(const AVClass **)avcl;
}

/// The context a logging context logs on behalf of (`AVClass.parent_log_context_offset`), or
/// NULL when its class names none.
static inline void *fs_log_parent_context(void *avcl) {
    const AVClass *class = fs_log_context_class(avcl);
    if (class == NULL || class->parent_log_context_offset == 0) return NULL;
    void *parent = NULL;
    memcpy(&parent, (const uint8_t *)avcl + class->parent_log_context_offset, sizeof(parent));
    return parent;
}

// ---- Damage (decode errors, corrupt flags) ----
//
// FrameSeek counts what the decoder reports about damage on the way to each landing. Both
// fields below are older than FFmpeg 5.1, the oldest release FrameSeek supports (AVFrame.flags
// with AV_FRAME_FLAG_CORRUPT and AVFrame.decode_error_flags with the FF_DECODE_ERROR_ bits date
// from libavutil 52/53, FFmpeg 2.x), and FFmpeg 7.1 keeps both undeprecated. They are read
// through these accessors all the same, so that a future rename (as AV_FRAME_FLAG_KEY replaced
// key_frame in lavu 58.7.100) changes one place.

/// 1 when the decoder marked the frame's data as possibly corrupt (AV_FRAME_FLAG_CORRUPT).
static inline int fs_frame_is_corrupt(const AVFrame *frame) {
    return (frame->flags & AV_FRAME_FLAG_CORRUPT) != 0;
}

/// The decoder's FF_DECODE_ERROR_* bits for the frame (invalid bitstream, missing reference,
/// concealment active, slices not decoded); 0 for a clean frame.
static inline int fs_frame_decode_error_flags(const AVFrame *frame) {
    return frame->decode_error_flags;
}

/// 1 when the format context's duration was stated by the container (or its streams), not
/// estimated from the timestamps read at the file's end or from the bit rate: only a stated
/// duration can show that the data ends early. AVFormatContext.duration_estimation_method is
/// public since lavf 55 and unchanged through FFmpeg 7.1.
static inline int fs_format_duration_is_stated(const AVFormatContext *context) {
    return context->duration_estimation_method == AVFMT_DURATION_FROM_STREAM;
}

// ---- The container's index (avformat_index_get_entry) ----

// AVIndexEntry.flags is a signed 2-bit bitfield (`int flags:2`), so AVINDEX_DISCARD_FRAME reads
// back as -2: the bits are tested here, in C, never compared as values in Swift. Unchanged from
// FFmpeg 5.1 through 7.1.

/// 1 when the index entry is a keyframe (stss, or every sample of a stream without one).
static inline int fs_index_entry_is_keyframe(const AVIndexEntry *entry) {
    return (entry->flags & AVINDEX_KEYFRAME) != 0;
}

/// 1 when an edit list discards the entry's sample (it is decoded, never shown).
static inline int fs_index_entry_is_discarded(const AVIndexEntry *entry) {
    return (entry->flags & AVINDEX_DISCARD_FRAME) != 0;
}

/// The entry's sample size in bytes (a 30-bit field).
static inline int fs_index_entry_size(const AVIndexEntry *entry) {
    return entry->size;
}

/// 1 when every entry of the stream's index has a position and ends at or before byte
/// `size`: one pass in C over an index that a two-hour film's tracks make 550,000 entries long.
static inline int fs_index_entries_lie_within(AVStream *stream, int64_t size) {
    int count = avformat_index_get_entries_count(stream);
    for (int i = 0; i < count; i++) {
        const AVIndexEntry *entry = avformat_index_get_entry(stream, i);
        if (!entry || entry->pos < 0 || entry->pos + entry->size > size) return 0;
    }
    return 1;
}

/// Copies the first `count` entries of the stream's index: each timestamp, and its flags as
/// 1 (keyframe) | 2 (discarded by an edit list). One call in C for a table a two-hour film
/// makes 216,000 entries long, where an entry at a time cost three calls each. 0 when the
/// index holds fewer than `count` entries.
static inline int fs_index_entries_copy(AVStream *stream, int count, int64_t *timestamps, uint8_t *flags) {
    if (count > avformat_index_get_entries_count(stream)) return 0;
    for (int i = 0; i < count; i++) {
        const AVIndexEntry *entry = avformat_index_get_entry(stream, i);
        if (!entry) return 0;
        timestamps[i] = entry->timestamp;
        flags[i] = ((entry->flags & AVINDEX_KEYFRAME) ? 1 : 0) | ((entry->flags & AVINDEX_DISCARD_FRAME) ? 2 : 0);
    }
    return 1;
}

/// FrameSeek's log handler, in Swift (`FFmpegLog`, `@_cdecl`): it is given the warnings and
/// errors only, already formatted.
void fs_log_handle(void *context, int level, const char *text);

/// Formats a message `fs_log_filter` lets through and hands it to `fs_log_handle`: a function
/// of its own so that the filter, which drops all the rest, does not set up (and check) the
/// 512-byte buffer for each of them.
static __attribute__((noinline, unused)) void fs_log_forward(void *context, int level, const char *format, va_list arguments) {
    char text[512];
    if (vsnprintf(text, sizeof text, format, arguments) < 0) return;
    fs_log_handle(context, level, text);
}

/// The callback `av_log_set_callback` is given: it drops every message above warning level in
/// C, as FFmpeg's own callback does, because the mov demuxer logs two trace messages for each
/// sample it reads, 430,000 for a two-hour film, and each crossing into Swift cost 7 ns.
static inline void fs_log_filter(void *context, int level, const char *format, va_list arguments) {
    if (level > AV_LOG_WARNING || !format) return;
    fs_log_forward(context, level, format, arguments);
}

/// Installs `fs_log_filter` as the process's FFmpeg log callback.
static inline void fs_install_log_filter(void) {
    av_log_set_callback(fs_log_filter);
}

// ---- Filter graphs (HDR tone mapping) ----
//
// libavfilter is not linked: it is opened with dlopen the first time a picture is tone-mapped.
// Linking it made every process load its 166 dependencies (libplacebo, Vulkan, zimg, flite...)
// at start: 12 MB more resident memory and 25 ms more for every command, HDR or not.

/// The libavfilter functions FrameSeek calls, filled from the library at run time
/// (`fs_avfilter_resolve`). C so that each slot's type is the header's own (`__typeof__`),
/// which changes with the FFmpeg version; naming a function in `__typeof__` does not link it.
typedef struct fs_avfilter_api {
    __typeof__(&avfilter_get_by_name) get_by_name;
    __typeof__(&avfilter_graph_alloc) graph_alloc;
    __typeof__(&avfilter_graph_create_filter) graph_create_filter;
    __typeof__(&avfilter_inout_alloc) inout_alloc;
    __typeof__(&avfilter_inout_free) inout_free;
    __typeof__(&avfilter_graph_parse_ptr) graph_parse_ptr;
    __typeof__(&avfilter_graph_config) graph_config;
    __typeof__(&avfilter_graph_free) graph_free;
    __typeof__(&av_buffersrc_add_frame_flags) buffersrc_add_frame_flags;
    __typeof__(&av_buffersink_get_frame) buffersink_get_frame;
} fs_avfilter_api;

/// Fills `api` from `library`, a dlopen handle of libavfilter; 1 on success, 0 when one of
/// the functions is missing. C because Swift can turn dlsym's `void *` into a function pointer
/// only by a cast to a type it spells itself, unchecked against the headers.
static inline int fs_avfilter_resolve(void *library, fs_avfilter_api *api) {
#define FS_AVFILTER_SYMBOL(field, symbol) if (!(*(void **)&api->field = dlsym(library, #symbol))) return 0
    FS_AVFILTER_SYMBOL(get_by_name, avfilter_get_by_name);
    FS_AVFILTER_SYMBOL(graph_alloc, avfilter_graph_alloc);
    FS_AVFILTER_SYMBOL(graph_create_filter, avfilter_graph_create_filter);
    FS_AVFILTER_SYMBOL(inout_alloc, avfilter_inout_alloc);
    FS_AVFILTER_SYMBOL(inout_free, avfilter_inout_free);
    FS_AVFILTER_SYMBOL(graph_parse_ptr, avfilter_graph_parse_ptr);
    FS_AVFILTER_SYMBOL(graph_config, avfilter_graph_config);
    FS_AVFILTER_SYMBOL(graph_free, avfilter_graph_free);
    FS_AVFILTER_SYMBOL(buffersrc_add_frame_flags, av_buffersrc_add_frame_flags);
    FS_AVFILTER_SYMBOL(buffersink_get_frame, av_buffersink_get_frame);
#undef FS_AVFILTER_SYMBOL
    return 1;
}

/// Never frees: the buffers fs_sws_scale_frame lends swscale belong to its caller.
static inline void fs_buffer_keep(void *opaque, uint8_t *data) { (void)opaque; (void)data; }

/// Converts the picture in `src` (`src_format`, `src_width` x `src_height`) into `dst`, one
/// packed plane of `dst_stride` bytes a row, with `sws_scale_frame`: the call through which a
/// context made with a `threads` option converts slices of the picture side by side
/// (`sws_scale` converts on one thread whatever the context says). Both pictures are lent to
/// swscale as frames whose buffers are never freed, so no pixel is copied. Returns 0 or an
/// AVERROR (ENOMEM from the frames, or sws_scale_frame's own).
static inline int fs_sws_scale_frame(struct SwsContext *context,
                                     uint8_t *const src[4], const int src_stride[4], int src_format,
                                     int src_width, int src_height,
                                     uint8_t *dst, int dst_stride, int dst_format, int dst_width,
                                     int dst_height) {
    AVFrame *in = av_frame_alloc(), *out = av_frame_alloc();
    int ret = AVERROR(ENOMEM);
    if (!in || !out) goto end;
    for (int i = 0; i < 4; i++) {
        in->data[i] = src[i];
        in->linesize[i] = src_stride[i];
    }
    in->format = src_format;
    in->width = src_width;
    in->height = src_height;
    out->data[0] = dst;
    out->linesize[0] = dst_stride;
    out->format = dst_format;
    out->width = dst_width;
    out->height = dst_height;
    // swscale refs both frames: a frame without buffers would be copied (the source) or given
    // new ones (the destination).
    in->buf[0] = av_buffer_create(src[0], 1, fs_buffer_keep, NULL, 0);
    out->buf[0] = av_buffer_create(dst, (size_t)dst_stride * (size_t)dst_height, fs_buffer_keep, NULL, 0);
    if (!in->buf[0] || !out->buf[0]) goto end;
    ret = sws_scale_frame(context, out, in);
end:
    av_frame_free(&in);
    av_frame_free(&out);
    return ret < 0 ? ret : 0;
}

/// AVERROR_FILTER_NOT_FOUND.
static inline int fs_averror_filter_not_found(void) { return AVERROR_FILTER_NOT_FOUND; }

#endif
