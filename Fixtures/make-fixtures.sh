#!/usr/bin/env bash
# FrameSeek test fixtures: the recipe.
#
#   Fixtures/make-fixtures.sh                 regenerate everything: synthetic encodes, copies of
#                                             the real clips, bad inputs, oracles, manifest
#   Fixtures/make-fixtures.sh --oracle-only   only rewrite the oracles (and the manifest) from the
#                                             media files already in Fixtures/media
#
# Needs the ffmpeg/ffprobe command-line tools (written against FFmpeg 5.1, Debian 12) built with
# libx264, libx265, libvpx, libaom, libopus and libdav1d, and python3 (standard library only),
# which patches an edit list (shift-edit-list.py), builds a hostile Matroska file
# (make-overflow-mkv.py) and runs the checks at the end, and a C compiler with libvpx-dev for
# the VP8 encoder of vp8_segment_map.webm (make-vp8-segment-map.c).
#
# Environment:
#   SHARED   where the shared folder lives, relative to the repository root (default ../shared);
#            the real clips are copied from "$SHARED/media".
#   SKIP_CHECKS=1   do not run check-barcodes.py / check-properties.py at the end.
#
# Encodes use one thread, -map_metadata -1, -fflags +bitexact and -flags +bitexact so that reruns
# on the same FFmpeg/encoder versions produce the same bytes. Another encoder version will give
# different bytes: the oracles are then rewritten from whatever was encoded, so they stay true.
set -euo pipefail

usage() {
  sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

ORACLE_ONLY=0
case "${1:-}" in
  "") ;;
  --oracle-only) ORACLE_ONLY=1 ;;
  -h|--help) usage; exit 0 ;;
  *) echo "make-fixtures.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
esac

FIX="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$FIX/.." && pwd)"
cd "$REPO"   # so that a relative SHARED is relative to the repository
SHARED_MEDIA="${SHARED:-../shared}/media"
MEDIA="$FIX/media"
BAD="$FIX/bad"
ORACLE="$FIX/oracle"

for tool in ffmpeg ffprobe; do
  command -v "$tool" >/dev/null || { echo "make-fixtures.sh: $tool not found" >&2; exit 2; }
done

log() { echo "make-fixtures: $*" >&2; }

FFMPEG=(ffmpeg -nostdin -hide_banner -v error -y)
# Output options shared by every synthetic encode.
DETERMINISTIC=(-map_metadata -1 -map_chapters -1 -fflags +bitexact -threads 1)
VBITEXACT=(-flags:v +bitexact)

# The frame-number barcode (see DESIGN.md, "Fixtures"): the top 20 rows hold N as 16 black/white
# 20x20 luma blocks, bit b in block b from the left; chroma is neutral there.
BARCODE="format=yuv420p,geq=lum='if(lt(Y,20),255*mod(floor(N/pow(2,floor(X/20))),2),lum(X,Y))':cb='if(lt(Y,20),128,cb(X,Y))':cr='if(lt(Y,20),128,cr(X,Y))'"

# A moving 320x240 source at the given rate (320 wide: 16 blocks of 20 px).
src() { echo "testsrc2=size=320x240:rate=$1"; }

REAL_CLIPS=(nasa_13013.mp4 iphone_hevc_editlist.mp4 android_h264_portrait_4k60.mp4
            bear_vp9.webm bbb_aac_lc_8k.m4a nasa_13013_audio.mp3)

# --------------------------------------------------------------------------------------------
# Synthetic encodes
# --------------------------------------------------------------------------------------------
make_synthetic() {
  local tmp="$1"

  log "h264_bframes_gop250.mp4"
  "${FFMPEG[@]}" -f lavfi -i "$(src 30000/1001)" -vf "$BARCODE" -frames:v 360 \
    -c:v libx264 -preset medium -crf 32 -pix_fmt yuv420p \
    -bf 3 -g 250 -keyint_min 250 -sc_threshold 0 \
    "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$MEDIA/h264_bframes_gop250.mp4"

  log "h264_mpegts_offset.ts"
  "${FFMPEG[@]}" -f lavfi -i "$(src 25)" -vf "$BARCODE" -frames:v 150 \
    -c:v libx264 -preset medium -crf 32 -pix_fmt yuv420p \
    -bf 2 -g 50 -keyint_min 50 -sc_threshold 0 \
    -output_ts_offset 10 -f mpegts \
    "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$MEDIA/h264_mpegts_offset.ts"

  log "hevc_opengop.mkv"
  "${FFMPEG[@]}" -f lavfi -i "$(src 24)" -vf "$BARCODE" -frames:v 150 \
    -c:v libx265 -preset fast -crf 32 -pix_fmt yuv420p \
    -x265-params "keyint=48:min-keyint=48:open-gop=1:bframes=4:scenecut=0:frame-threads=1:pools=none:log-level=error" \
    "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$MEDIA/hevc_opengop.mkv"

  # One-pass VP9 in this libvpx makes no alt-ref frames; two-pass does (hidden ARFs packed into
  # superframes, shown later by tiny "show the ARF" frames).
  log "vp9_altref.webm (2 passes)"
  local pass
  for pass in 1 2; do
    local out="$MEDIA/vp9_altref.webm"
    [ "$pass" = 1 ] && out="$tmp/vp9_pass1.webm"
    "${FFMPEG[@]}" -f lavfi -i "$(src 30)" -vf "$BARCODE" -frames:v 120 \
      -c:v libvpx-vp9 -crf 42 -b:v 0 -deadline good -cpu-used 4 -row-mt 0 -pix_fmt yuv420p \
      -g 60 -keyint_min 60 -auto-alt-ref 1 -lag-in-frames 16 \
      -pass "$pass" -passlogfile "$tmp/vp9_2pass" \
      "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$out"
  done

  # VP8 whose non-reference frames (they refresh no buffer) send new segmentation maps that the
  # next frames inherit: skipping them changes those frames' pixels. ffmpeg's libvpx wrapper
  # cannot send a map on chosen frames, so a small libvpx program encodes it (libvpx-dev).
  log "vp8_segment_map.webm"
  cc -O2 -o "$tmp/make-vp8-segment-map" "$FIX/make-vp8-segment-map.c" -lvpx
  "${FFMPEG[@]}" -f lavfi -i "$(src 30)" -vf "$BARCODE" -frames:v 90 -f rawvideo -pix_fmt yuv420p - \
    | "$tmp/make-vp8-segment-map" 320 240 90 > "$tmp/vp8_segment_map.ivf"
  "${FFMPEG[@]}" -i "$tmp/vp8_segment_map.ivf" -c copy \
    -map_metadata -1 -map_chapters -1 -fflags +bitexact "$MEDIA/vp8_segment_map.webm"

  log "av1.mp4"
  "${FFMPEG[@]}" -f lavfi -i "$(src 30)" -vf "$BARCODE" -frames:v 90 \
    -c:v libaom-av1 -cpu-used 8 -crf 45 -b:v 0 -row-mt 0 -pix_fmt yuv420p \
    -g 60 -keyint_min 60 \
    "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$MEDIA/av1.mp4"

  # Variable frame rate: 40 ms gaps, every 5th gap 65 ms. settb first so that the millisecond
  # timestamps are not rounded to the 1/25 s source time base, and -enc_time_base so that the
  # encoder does not round them to 1/frame_rate either.
  log "h264_vfr.mkv"
  "${FFMPEG[@]}" -f lavfi -i "$(src 25)" \
    -vf "$BARCODE,settb=1/1000,setpts='40*N+25*floor(N/5)'" -frames:v 120 \
    -fps_mode passthrough -enc_time_base:v 1/1000 \
    -c:v libx264 -preset medium -crf 32 -pix_fmt yuv420p -bf 3 -g 60 -keyint_min 60 -sc_threshold 0 \
    "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$MEDIA/h264_vfr.mkv"

  # Edit list that starts inside a GOP: a 5 s source (GOP 60 at 30 fps, B-frames), stream-copied
  # from -ss 1.0. The copy keeps the packets from the keyframe at 0 s; the muxer writes an elst
  # whose media_time points 1.0 s in, so the first presented frame is source frame 30 (a B-frame).
  log "h264_editlist_midgop.mp4"
  "${FFMPEG[@]}" -f lavfi -i "$(src 30)" -vf "$BARCODE" -frames:v 150 \
    -c:v libx264 -preset medium -crf 32 -pix_fmt yuv420p -bf 3 -g 60 -keyint_min 60 -sc_threshold 0 \
    "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$tmp/editlist_source.mp4"
  "${FFMPEG[@]}" -ss 1.0 -i "$tmp/editlist_source.mp4" -map 0:v -c copy \
    -map_metadata -1 -map_chapters -1 -fflags +bitexact "$MEDIA/h264_editlist_midgop.mp4"

  log "h264_10bit.mp4"
  "${FFMPEG[@]}" -f lavfi -i "$(src 30)" -vf "$BARCODE,format=yuv420p10le" -frames:v 90 \
    -c:v libx264 -preset medium -crf 32 -pix_fmt yuv420p10le -profile:v high10 \
    -bf 3 -g 30 -keyint_min 30 -sc_threshold 0 \
    "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$MEDIA/h264_10bit.mp4"

  # Anamorphic: 320x240 coded with sample aspect ratio 64:45 (the PAL 16:9 DVD SAR), so the display
  # size is 455x240 (DAR 256:135). setsar puts the SAR on the frames; libx264 writes it in the SPS
  # VUI (aspect_ratio_idc 255, sar 64x45) and the MP4 muxer writes a pasp box.
  log "h264_anamorphic_sar64x45.mp4"
  "${FFMPEG[@]}" -f lavfi -i "$(src 25)" -vf "$BARCODE,setsar=64/45" -frames:v 60 \
    -c:v libx264 -preset medium -crf 32 -pix_fmt yuv420p \
    -bf 2 -g 25 -keyint_min 25 -sc_threshold 0 \
    "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$MEDIA/h264_anamorphic_sar64x45.mp4"

  # An MPEG-TS cut at a TS packet boundary inside its first GOP, as a recording joined mid-stream
  # is: open GOP (x264 open-gop: the I-frames after the first are not IDR and their leading
  # B-frames reference the GOP before), GOP 50, 2 B-frames, 25 fps. Cutting 20 TS packets
  # (3760 bytes) loses the IDR, SPS and PPS: the remaining packets of the first GOP cannot be
  # decoded, nor can the two leading B-frames of the first I-frame left (source frame 50), so
  # decoding starts at source frame 50 (barcode_offset 50).
  log "h264_ts_cut_midgop.ts"
  "${FFMPEG[@]}" -f lavfi -i "$(src 25)" -vf "$BARCODE" -frames:v 150 \
    -c:v libx264 -preset medium -crf 32 -pix_fmt yuv420p \
    -bf 2 -g 50 -keyint_min 50 -sc_threshold 0 -x264-params open-gop=1 -f mpegts \
    "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$tmp/ts_cut_source.ts"
  dd if="$tmp/ts_cut_source.ts" of="$MEDIA/h264_ts_cut_midgop.ts" bs=188 skip=20 status=none

  # An HEVC open-GOP stream that starts at a CRA: the hevc_opengop recipe in MPEG-TS, stream-copied
  # from -ss 2 (the CRA at source frame 48). The two RASL pictures that follow the CRA in decode
  # order reference the GOP before, which is gone: the decoder drops them (barcode_offset 48).
  log "hevc_cra_start.ts"
  "${FFMPEG[@]}" -f lavfi -i "$(src 24)" -vf "$BARCODE" -frames:v 150 \
    -c:v libx265 -preset fast -crf 32 -pix_fmt yuv420p \
    -x265-params "keyint=48:min-keyint=48:open-gop=1:bframes=4:scenecut=0:frame-threads=1:pools=none:log-level=error" \
    -f mpegts "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$tmp/hevc_cra_source.ts"
  "${FFMPEG[@]}" -ss 2 -i "$tmp/hevc_cra_source.ts" -map 0:v -c copy \
    -map_metadata -1 -map_chapters -1 -fflags +bitexact "$MEDIA/hevc_cra_start.ts"

  # An edit list that starts after the first GOP: a 5 s source (GOP 30 at 30 fps, 3 B-frames)
  # whose elst media_time is moved 45 frames later by shift-edit-list.py (the muxer never writes
  # this; -ss stream copies start at the keyframe before). The whole first GOP and source frames
  # 30..44 lie before the edit; FFmpeg's index drops the first GOP (120 packets listed, 15 of
  # them discarded) while the header still counts 150 samples. First frame: source 45, a B-frame.
  log "h264_editlist_late.mp4"
  "${FFMPEG[@]}" -f lavfi -i "$(src 30)" -vf "$BARCODE" -frames:v 150 \
    -c:v libx264 -preset medium -crf 32 -pix_fmt yuv420p -bf 3 -g 30 -keyint_min 30 -sc_threshold 0 \
    "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$tmp/editlist_late_source.mp4"
  python3 "$FIX/shift-edit-list.py" "$tmp/editlist_late_source.mp4" "$MEDIA/h264_editlist_late.mp4" 45

  # HDR10: HEVC Main 10 in MP4, PQ (smpte2084) with BT.2020 primaries and matrix, 24 fps, GOP 24,
  # 2 B-frames, 48 frames. x265 writes the mastering display and MaxCLL as SEI only; the MP4's
  # mdcv and clli boxes (BT.2020 primaries, D65, 1000/0.0001 nits; MaxCLL 1000, MaxFALL 400) are
  # added by add-hdr-metadata.py, which is where FFmpeg's demuxer reads them as stream side data.
  # The SDR test pattern in a PQ signal: code values, not a grade, for detection and tone mapping.
  log "hevc_pq_hdr10.mp4"
  "${FFMPEG[@]}" -f lavfi -i "$(src 24)" -vf "$BARCODE,format=yuv420p10le" -frames:v 48 \
    -c:v libx265 -preset fast -crf 28 -pix_fmt yuv420p10le \
    -color_primaries bt2020 -color_trc smpte2084 -colorspace bt2020nc -color_range tv \
    -x265-params "keyint=24:min-keyint=24:bframes=2:scenecut=0:frame-threads=1:pools=none:log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:hdr10=1:master-display=G(8500,39850)B(6550,2300)R(35400,14600)WP(15635,16450)L(10000000,1):max-cll=1000,400" \
    -tag:v hvc1 "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$tmp/pq_source.mp4"
  python3 "$FIX/add-hdr-metadata.py" "$tmp/pq_source.mp4" "$MEDIA/hevc_pq_hdr10.mp4"

  # HLG: HEVC Main 10 in Matroska, arib-std-b67 with BT.2020, 25 fps, GOP 25, 2 B-frames, 50
  # frames, no static metadata (HLG needs none): the phone's transfer in another container.
  log "hevc_hlg.mkv"
  "${FFMPEG[@]}" -f lavfi -i "$(src 25)" -vf "$BARCODE,format=yuv420p10le" -frames:v 50 \
    -c:v libx265 -preset fast -crf 28 -pix_fmt yuv420p10le \
    -color_primaries bt2020 -color_trc arib-std-b67 -colorspace bt2020nc -color_range tv \
    -x265-params "keyint=25:min-keyint=25:bframes=2:scenecut=0:frame-threads=1:pools=none:log-level=error:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc" \
    "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$MEDIA/hevc_hlg.mkv"

  # Tone mapping checked without zimg: one lossless 10-bit 4:4:4 frame (FFV1) of 32 patches
  # of known PQ code values, BT.2020, limited range; hdr-code-values.py writes the frame and,
  # from the BT.2100, ST 2084, RP 177, Hable and BT.1886 formulas alone, each patch's expected
  # SDR colour. Not in the catalog: a test image, not a clip (no barcode, one frame).
  log "hdr_pq_codes.mkv"
  python3 "$FIX/hdr-code-values.py" raw "$tmp/hdr_pq_codes.yuv"
  "${FFMPEG[@]}" -f rawvideo -pix_fmt yuv444p10le -s 256x128 -r 25 -i "$tmp/hdr_pq_codes.yuv" -frames:v 1 \
    -c:v ffv1 -level 3 -pix_fmt yuv444p10le \
    -color_primaries bt2020 -color_trc smpte2084 -colorspace bt2020nc -color_range tv \
    "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$MEDIA/hdr_pq_codes.mkv"
  python3 "$FIX/hdr-code-values.py" expected "$ORACLE/hdr_pq_codes.expected.json"

  log "aac_sine.m4a"
  "${FFMPEG[@]}" -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=3" \
    -c:a aac -b:a 48k -ac 1 -ar 48000 \
    "${DETERMINISTIC[@]}" -flags:a +bitexact "$MEDIA/aac_sine.m4a"

  # Opus in WebM: the Matroska codec delay (312 samples of pre-skip) makes the first packet's
  # pts -7 ms (start_time -0.007) and the decoder trims the first frame to 648 samples.
  log "opus_sine.webm"
  "${FFMPEG[@]}" -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=2" \
    -c:a libopus -b:a 24k -ac 1 -ar 48000 \
    "${DETERMINISTIC[@]}" -flags:a +bitexact "$MEDIA/opus_sine.webm"
}

# --------------------------------------------------------------------------------------------
# Real clips: byte-for-byte copies from ../shared/media
# --------------------------------------------------------------------------------------------
copy_real() {
  local f
  for f in "${REAL_CLIPS[@]}"; do
    log "copy $f"
    cp "$SHARED_MEDIA/$f" "$MEDIA/$f"
    chmod 644 "$MEDIA/$f"
    cmp -s "$SHARED_MEDIA/$f" "$MEDIA/$f" || { echo "make-fixtures.sh: copy of $f differs" >&2; exit 1; }
  done
  cp "$SHARED_MEDIA/SOURCES.md" "$MEDIA/SOURCES.md"
  chmod 644 "$MEDIA/SOURCES.md"
  # The HLS stream whose MPEG-TS timestamps wrap (HLSRolloverTests): the playlist and its segments.
  log "copy hls-ts-rollover/"
  mkdir -p "$MEDIA/hls-ts-rollover"
  cp "$SHARED_MEDIA"/hls-ts-rollover/* "$MEDIA/hls-ts-rollover/"
  chmod 644 "$MEDIA"/hls-ts-rollover/*
  diff -r "$SHARED_MEDIA/hls-ts-rollover" "$MEDIA/hls-ts-rollover" >/dev/null \
    || { echo "make-fixtures.sh: copy of hls-ts-rollover/ differs" >&2; exit 1; }
}

# --------------------------------------------------------------------------------------------
# Bad inputs
# --------------------------------------------------------------------------------------------
keep_percent() {  # keep_percent IN OUT PERCENT
  local size; size=$(wc -c < "$1")
  head -c $(( size * $3 / 100 )) "$1" > "$2"
}

make_bad() {
  local tmp="$1"
  log "bad inputs"
  : > "$BAD/empty.mp4"
  printf 'This is not a media file.\nIt is plain text with an .mp4 name, for FrameSeek error-path tests.\n' \
    > "$BAD/not_media.mp4"
  # h264_bframes_gop250.mp4 has its moov at the end (no faststart): 40% holds ftyp + part of mdat.
  keep_percent "$MEDIA/h264_bframes_gop250.mp4" "$BAD/truncated_moov_at_end.mp4" 40
  # A faststart copy has moov first: 50% keeps the whole moov but cuts the sample data.
  "${FFMPEG[@]}" -i "$MEDIA/h264_bframes_gop250.mp4" -map 0 -c copy -movflags +faststart \
    -map_metadata -1 -fflags +bitexact "$tmp/faststart.mp4"
  keep_percent "$tmp/faststart.mp4" "$BAD/truncated_faststart.mp4" 50
  # Timestamps that repeat: 1500 fps into Matroska's millisecond time base gives 0, 1, 1, 2, 3, 3 ...
  "${FFMPEG[@]}" -f lavfi -i "$(src 1500)" -frames:v 30 \
    -c:v libx264 -preset medium -crf 32 -pix_fmt yuv420p -bf 0 -g 30 \
    "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$BAD/duplicate_pts.mkv"
  # An Annex B elementary stream: no container, so no timestamps at all.
  "${FFMPEG[@]}" -f lavfi -i "$(src 25)" -frames:v 10 \
    -c:v libx264 -preset medium -crf 32 -pix_fmt yuv420p -bf 2 -g 10 -f h264 \
    "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$BAD/raw_stream.h264"
  # Hand-built Matroska whose second Cluster sits at 2^63 ms: timestamps that overflow 64 bits.
  "${FFMPEG[@]}" -f lavfi -i "testsrc=size=64x48:rate=25" -frames:v 4 \
    -c:v mjpeg -q:v 8 -pix_fmt yuvj420p -f mjpeg \
    "${DETERMINISTIC[@]}" "${VBITEXACT[@]}" "$tmp/overflow.mjpeg"
  python3 "$FIX/make-overflow-mkv.py" "$tmp/overflow.mjpeg" "$BAD/overflow_pts.mkv"
  # Damaged copies of committed fixtures (bits flipped, cut short, a damaged moov), and FFmpeg's
  # own decode of the bit-flipped MP4, one decoder thread as FrameSeek decodes by default
  # (concealment can differ between thread counts); -v quiet: the decode errors are the point.
  python3 "$FIX/make-damaged.py" "$MEDIA" "$BAD"
  (cd "$BAD" && ffmpeg -nostdin -v quiet -threads 1 -i bitflip_mdat.mp4 -map 0:0 \
     -fps_mode passthrough -enc_time_base:v -1 -fflags +bitexact -f framemd5 -) \
    > "$ORACLE/bitflip_mdat.mp4.s0.framemd5"
}

# --------------------------------------------------------------------------------------------
# Oracles: ffprobe frame/packet tables, framemd5, probe
# --------------------------------------------------------------------------------------------
# ffprobe/ffmpeg run inside media/ on the bare file name, so no absolute path leaks into the JSON.
oracle_streams() {  # prints "video N" / "audio N" lines for the streams that get oracles
  local name="$1" vids auds
  vids=$(cd "$MEDIA" && ffprobe -v error -select_streams v \
           -show_entries stream=index:stream_disposition=attached_pic -of csv=p=0 "$name" \
         | awk -F, '$2 != 1 { print $1 }')
  if [ -n "$vids" ]; then
    for n in $vids; do echo "video $n"; done
  else
    auds=$(cd "$MEDIA" && ffprobe -v error -select_streams a -show_entries stream=index -of csv=p=0 "$name")
    for n in $auds; do echo "audio $n"; done
  fi
}

write_oracles() {
  local name="$1" kind n
  log "oracles for $name"
  (cd "$MEDIA" && ffprobe -v error -show_format -show_streams -of json "$name") \
    > "$ORACLE/$name.probe.json"
  while read -r kind n; do
    (cd "$MEDIA" && ffprobe -v error -select_streams "$n" \
       -show_entries frame=media_type,stream_index,key_frame,pts,pkt_dts,best_effort_timestamp,pkt_duration,pkt_pos,pict_type,width,height,pix_fmt,nb_samples \
       -of json=compact=1 "$name") > "$ORACLE/$name.s$n.frames.json"
    (cd "$MEDIA" && ffprobe -v error -select_streams "$n" \
       -show_entries packet=pts,dts,duration,flags,pos,size \
       -of json=compact=1 "$name") > "$ORACLE/$name.s$n.packets.json"
    if [ "$kind" = video ]; then
      # -enc_time_base -1: the pts column is the stream's own time base (zero-based, as
      # ffmpeg -ss counts), not 1/frame_rate, which would round VFR timestamps.
      # -fflags +bitexact: no "#software: Lavf..." line, so an FFmpeg upgrade alone does not
      # change the file.
      (cd "$MEDIA" && ffmpeg -nostdin -v error -noautorotate -i "$name" -map "0:$n" \
         -fps_mode passthrough -enc_time_base:v -1 -fflags +bitexact -f framemd5 -) \
        > "$ORACLE/$name.s$n.framemd5"
    else
      # Audio: framemd5 hashes each decoded frame in ffmpeg's default audio encoding for it,
      # pcm_s16le interleaved at the frame's own rate and layout: what seek --md5 prints.
      (cd "$MEDIA" && ffmpeg -nostdin -v error -i "$name" -map "0:$n" -fflags +bitexact -f framemd5 -) \
        > "$ORACLE/$name.s$n.framemd5"
    fi
  done < <(oracle_streams "$name")
}

# --------------------------------------------------------------------------------------------
# Manifest
# --------------------------------------------------------------------------------------------
manifest_entry() {  # name file stream media_type barcode barcode_offset real notes
  local name="$1" file="$2" stream="$3" type="$4" barcode="$5" offset="$6" real="$7" notes="$8"
  local base="oracle/${file#media/}.s$stream" md5="null"
  [ "$type" = video ] && md5="\"$base.framemd5\""
  printf '  {"id": "%s.s%s", "name": "%s", "file": "%s", "stream": %s, "media_type": "%s", "barcode": %s, "barcode_offset": %s, "real": %s,\n   "oracle": {"probe": "oracle/%s.probe.json", "frames": "%s.frames.json", "packets": "%s.packets.json", "framemd5": %s},\n   "notes": "%s"}' \
    "$name" "$stream" "$name" "$file" "$stream" "$type" "$barcode" "$offset" "$real" \
    "${file#media/}" "$base" "$base" "$md5" "$notes"
}

write_manifest() {
  log "fixtures.json"
  local entries=(
    "$(manifest_entry h264_bframes_gop250 media/h264_bframes_gop250.mp4 0 video true 0 false \
       'H.264 High, 30000/1001 fps, 3 B-frames, closed GOP of exactly 250 (IDR at frames 0 and 250), 360 frames: long decode-forward from a keyframe, NTSC rational time, MP4 moov at end')"
    "$(manifest_entry h264_mpegts_offset media/h264_mpegts_offset.ts 0 video true 0 false \
       'H.264 in MPEG-TS, 25 fps, GOP 50, 2 B-frames, 150 frames, -output_ts_offset 10 so the first PTS is 11.4 s: zero-based timeline, no index (packet scan), late-landing demuxer seeks')"
    "$(manifest_entry hevc_opengop media/hevc_opengop.mkv 0 video true 0 false \
       'HEVC in Matroska, 24 fps, open GOP: CRA keyframes every 48 frames followed in decode order by RASL leading pictures that display before the CRA, 4 B-frames, 150 frames')"
    "$(manifest_entry vp9_altref media/vp9_altref.webm 0 video true 0 false \
       'VP9 two-pass with alt-ref: hidden ARFs packed in superframes and shown later by tiny frames; one packet per shown frame, GOP 60, 30 fps, 120 frames')"
    "$(manifest_entry vp8_segment_map media/vp8_segment_map.webm 0 video true 0 false \
       'VP8 (libvpx), 30 fps, keyframes at frames 0 and 60, 90 frames: every odd frame refreshes no reference buffer, and every fourth frame from frame 1 sends a new segmentation map that the frames after it inherit, so skipping non-reference frames changes later pixels')"
    "$(manifest_entry av1 media/av1.mp4 0 video true 0 false \
       'AV1 (libaom) in MP4, 30 fps, GOP 60, 90 frames: hidden frames and 3-byte show_existing_frame packets, decoded by libdav1d')"
    "$(manifest_entry h264_vfr media/h264_vfr.mkv 0 video true 0 false \
       'H.264 in Matroska with variable frame rate: 40 ms gaps, every 5th gap 65 ms (ms time base), 120 frames, GOP 60: frame steps by index not duration')"
    "$(manifest_entry h264_editlist_midgop media/h264_editlist_midgop.mp4 0 video true 30 false \
       'MP4 edit list starting inside a GOP (stream copy from -ss 1.0): 30 discarded packets, first presented frame is a non-key B-frame showing source frame 30, 120 frames out of 150 packets')"
    "$(manifest_entry h264_10bit media/h264_10bit.mp4 0 video true 0 false \
       'H.264 High 10, yuv420p10le, 30 fps, GOP 30, 3 B-frames, 90 frames: high bit depth pixel conversion and hashing')"
    "$(manifest_entry hevc_pq_hdr10 media/hevc_pq_hdr10.mp4 0 video true 0 false \
       'HDR10: HEVC Main 10 in MP4, PQ (smpte2084), BT.2020 primaries and matrix, mdcv (BT.2020, D65, 1000/0.0001 nits) and clli (MaxCLL 1000, MaxFALL 400) boxes, 24 fps, GOP 24, 2 B-frames, 48 frames: HDR detection and tone mapping')"
    "$(manifest_entry hevc_hlg media/hevc_hlg.mkv 0 video true 0 false \
       'HLG: HEVC Main 10 in Matroska, arib-std-b67, BT.2020 primaries and matrix, no static metadata, 25 fps, GOP 25, 2 B-frames, 50 frames: HDR detection and tone mapping')"
    "$(manifest_entry h264_anamorphic_sar64x45 media/h264_anamorphic_sar64x45.mp4 0 video true 0 false \
       'Anamorphic H.264 in MP4: 320x240 coded, sample aspect ratio 64:45 (PAL 16:9 DVD) in both the SPS VUI and the MP4 pasp box, display 455x240 (DAR 256:135), 25 fps, GOP 25, 2 B-frames, 60 frames: exercises the display aspect of thumbnails')"
    "$(manifest_entry h264_ts_cut_midgop media/h264_ts_cut_midgop.ts 0 video true 50 false \
       'H.264 open GOP in MPEG-TS cut at a TS packet boundary inside the first GOP: IDR, SPS and PPS lost, so the rest of the first GOP and the leading B-frames of the first I-frame left never decode; decoding starts at source frame 50 (fewer frames than packets), GOP 50, 2 B-frames, 25 fps')"
    "$(manifest_entry hevc_cra_start media/hevc_cra_start.ts 0 video true 48 false \
       'HEVC open GOP in MPEG-TS that starts at a CRA (stream copy from -ss 2): the two RASL pictures after it in decode order are dropped by the decoder (104 packets, 102 frames), first frame is source frame 48, 24 fps, CRA every 48')"
    "$(manifest_entry h264_editlist_late media/h264_editlist_late.mp4 0 video true 45 false \
       'MP4 edit list that starts after the first GOP (elst media_time moved 45 frames on): the demuxer index drops the first GOP, 120 packets of 150 samples, 15 discarded, 105 frames; first frame a non-key B-frame showing source frame 45; must not be reported as truncated')"
    "$(manifest_entry aac_sine media/aac_sine.m4a 0 audio false 0 false \
       'Audio only: 440 Hz sine, AAC-LC 48 kHz mono, 3 s; 1024-sample encoder priming as a discarded first packet (edit list)')"
    "$(manifest_entry opus_sine media/opus_sine.webm 0 audio false 0 false \
       'Audio only: 440 Hz sine, Opus in WebM, 48 kHz mono, 2 s; codec delay 312 samples: first packet pts -7 ms, first frame 648 samples at pts 0')"
    "$(manifest_entry nasa_13013 media/nasa_13013.mp4 0 video false 0 true \
       'Real: NASA clip, H.264 High 320x180 25 fps with B-frames, first of two video streams in a 6-stream MP4 (plus AAC and mov_text), normal B-frame elst')"
    "$(manifest_entry nasa_13013 media/nasa_13013.mp4 3 video false 0 true \
       'Real: NASA clip, second video stream (absolute index 3), H.264 High 480x270 30000/1001 fps, 13.013 s, shorter than the file; stream selection by absolute index')"
    "$(manifest_entry iphone_hevc_editlist media/iphone_hevc_editlist.mp4 0 video false 0 true \
       'Real: iPhone HEVC Main 10 HLG, Display Matrix rotation -90, VFR, edit list trimming 0.455 s: 86 packets, 8 discarded, 77 frames')"
    "$(manifest_entry android_h264_portrait_4k60 media/android_h264_portrait_4k60.mp4 0 video false 0 true \
       'Real: Android H.264 3840x2160 yuvj420p, rotation -90, 60 fps with jittery timestamps (16.05-17.24 ms), 18 frames, one keyframe')"
    "$(manifest_entry bear_vp9 media/bear_vp9.webm 0 video false 0 true \
       'Real: VP9 Profile 0 320x240 30000/1001 fps WebM camera footage, 82 frames')"
    "$(manifest_entry bbb_aac_lc_8k media/bbb_aac_lc_8k.m4a 0 audio false 0 true \
       'Real: audio only, AAC-LC 8 kHz mono (fdkaac), start_time 0.256 s from the iTunSMPB gapless tag, 26 packets / 24 frames out')"
    "$(manifest_entry nasa_13013_audio media/nasa_13013_audio.mp3 0 audio false 0 true \
       'Real: audio only, raw MP3 without index, 8 kHz stereo, start_time 0.138125 s (encoder delay), 184 packets / 183 frames out')"
  )
  {
    echo "["
    local i last=$(( ${#entries[@]} - 1 ))
    for i in "${!entries[@]}"; do
      if [ "$i" -lt "$last" ]; then echo "${entries[$i]},"; else echo "${entries[$i]}"; fi
    done
    echo "]"
  } > "$FIX/fixtures.json"
}

# --------------------------------------------------------------------------------------------
main() {
  if [ "$ORACLE_ONLY" = 0 ]; then
    command -v python3 >/dev/null || { echo "make-fixtures.sh: python3 not found" >&2; exit 2; }
    local f
    for f in "${REAL_CLIPS[@]}" SOURCES.md; do
      [ -f "$SHARED_MEDIA/$f" ] || { echo "make-fixtures.sh: $SHARED_MEDIA/$f not found (set SHARED)" >&2; exit 2; }
    done
    TMP="$(mktemp -d)"
    trap 'rm -rf "$TMP"' EXIT
    rm -rf "$MEDIA" "$BAD"
    mkdir -p "$MEDIA" "$BAD"
    make_synthetic "$TMP"
    copy_real
    make_bad "$TMP"
  else
    [ -d "$MEDIA" ] || { echo "make-fixtures.sh: $MEDIA not found" >&2; exit 2; }
  fi

  # Each media file's oracles are rewritten in place; the folder is not emptied, because it also
  # holds what this loop does not write: the bit-flipped MP4's decode and the tone-mapping
  # patches' expected colours (written above), and the pictures recorded before tone mapping
  # (a record of earlier output, not a recipe).
  mkdir -p "$ORACLE"
  local name
  while IFS= read -r name; do
    [ -f "$MEDIA/$name" ] || continue   # hls-ts-rollover/ is a playlist's folder: its tests read ffprobe live
    # A test image whose expected values hdr-code-values.py computes: not a catalog clip.
    [ "$name" != hdr_pq_codes.mkv ] || continue
    write_oracles "$name"
  done < <(cd "$MEDIA" && ls -1 | grep -v -e '^SOURCES\.md$' | LC_ALL=C sort)

  write_manifest

  if [ "${SKIP_CHECKS:-0}" != 1 ] && command -v python3 >/dev/null; then
    log "checks"
    python3 "$FIX/check-barcodes.py"
    python3 "$FIX/check-properties.py"
  fi
  log "done: $(du -sb "$FIX" | cut -f1) bytes in $FIX"
}

main
