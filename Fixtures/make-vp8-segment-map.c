// make-vp8-segment-map WIDTH HEIGHT FRAMES < I420 > IVF
//
// Writes the VP8 stream of vp8_segment_map.webm: libvpx's encoder with frames that refresh no
// reference buffer, and a segmentation map that only such frames change. In each group of four
// frames, the first and third update the last-frame buffer and the second and fourth update
// nothing (FFmpeg's decoder treats those as non-reference: AVDISCARD_NONREF skips them). Every
// second frame of a group is given a new region-of-interest map, which libvpx sends as a
// segmentation map update on that non-reference frame; the frames after it keep segmentation on
// without updating the map, so they inherit it. A decoder that skips the non-reference frame
// decodes the next ones with the older map: other pixels, which is what the fixture is for.
//
// libvpx's own example encoders show the API; ffmpeg's libvpx wrapper cannot send a map on chosen
// frames only. Build: cc -O2 -o make-vp8-segment-map make-vp8-segment-map.c -lvpx (libvpx-dev).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vpx/vp8cx.h>
#include <vpx/vpx_encoder.h>

static void le32(unsigned v) { putchar(v & 255); putchar(v >> 8 & 255); putchar(v >> 16 & 255); putchar(v >> 24 & 255); }
static void le16(unsigned v) { putchar(v & 255); putchar(v >> 8 & 255); }

static int fail(const char *what, vpx_codec_ctx_t *codec) {
    fprintf(stderr, "make-vp8-segment-map: %s: %s\n", what, codec ? vpx_codec_error(codec) : "bad arguments");
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 4) return fail("usage: WIDTH HEIGHT FRAMES < I420 > IVF", NULL);
    const int width = atoi(argv[1]), height = atoi(argv[2]), frames = atoi(argv[3]);
    vpx_codec_enc_cfg_t cfg;
    vpx_codec_enc_config_default(vpx_codec_vp8_cx(), &cfg, 0);
    cfg.g_w = width;
    cfg.g_h = height;
    cfg.g_timebase.num = 1;
    cfg.g_timebase.den = 30;
    cfg.g_threads = 1;
    cfg.g_lag_in_frames = 0;
    cfg.g_error_resilient = 0;
    cfg.rc_end_usage = VPX_VBR;
    cfg.rc_target_bitrate = 300;
    cfg.kf_mode = VPX_KF_DISABLED;  // keyframes only where asked: frame 0 and every 60
    vpx_codec_ctx_t codec;
    if (vpx_codec_enc_init(&codec, vpx_codec_vp8_cx(), &cfg, 0)) return fail("vpx_codec_enc_init", &codec);
    vpx_codec_control(&codec, VP8E_SET_CPUUSED, 4);

    vpx_image_t image;
    vpx_img_alloc(&image, VPX_IMG_FMT_I420, width, height, 1);
    const size_t frameBytes = (size_t)width * height * 3 / 2;  // planes are contiguous at align 1
    const int rows = (height + 15) / 16, cols = (width + 15) / 16;
    unsigned char *map = malloc((size_t)rows * cols);

    // IVF header: signature, version, header size, fourcc, size, rate, scale, frames, unused.
    fwrite("DKIF", 1, 4, stdout);
    le16(0); le16(32); fwrite("VP80", 1, 4, stdout);
    le16(width); le16(height); le32(30); le32(1); le32(frames); le32(0);

    for (int i = 0; i <= frames; i++) {
        const int flushing = i == frames;
        if (!flushing && fread(image.planes[0], 1, frameBytes, stdin) != frameBytes) return fail("short input", NULL);
        vpx_enc_frame_flags_t flags = VP8_EFLAG_NO_UPD_GF | VP8_EFLAG_NO_UPD_ARF | VP8_EFLAG_NO_REF_GF | VP8_EFLAG_NO_REF_ARF;
        if (i % 2 == 1) flags |= VP8_EFLAG_NO_UPD_LAST;
        if (i % 60 == 0) flags |= VPX_EFLAG_FORCE_KF;
        if (!flushing && i % 4 == 1) {
            const int variant = (i / 4) % 2;
            for (int r = 0; r < rows; r++)
                for (int c = 0; c < cols; c++)
                    map[r * cols + c] = variant ? (r / 2 + c / 2) % 4 : (r / 3 + c / 3) % 4;
            vpx_roi_map_t roi;
            memset(&roi, 0, sizeof roi);
            roi.rows = rows;
            roi.cols = cols;
            roi.roi_map = map;
            const int deltaQ[4] = {0, 20, -20, 40};
            memcpy(roi.delta_q, deltaQ, sizeof deltaQ);
            // Loop-filter deltas stay 0: FFmpeg 5.1 and libvpx clamp per-segment levels
            // differently, and the fixture is about the map, not the filter.
            if (vpx_codec_control(&codec, VP8E_SET_ROI_MAP, &roi)) return fail("VP8E_SET_ROI_MAP", &codec);
        }
        if (vpx_codec_encode(&codec, flushing ? NULL : &image, i, 1, flushing ? 0 : flags, VPX_DL_GOOD_QUALITY))
            return fail("vpx_codec_encode", &codec);
        const vpx_codec_cx_pkt_t *packet;
        vpx_codec_iter_t iterator = NULL;
        while ((packet = vpx_codec_get_cx_data(&codec, &iterator))) {
            if (packet->kind != VPX_CODEC_CX_FRAME_PKT) continue;
            le32((unsigned)packet->data.frame.sz);
            le32((unsigned)packet->data.frame.pts);
            le32((unsigned)((unsigned long long)packet->data.frame.pts >> 32));
            fwrite(packet->data.frame.buf, 1, packet->data.frame.sz, stdout);
        }
    }
    free(map);
    vpx_img_free(&image);
    vpx_codec_destroy(&codec);
    return 0;
}
