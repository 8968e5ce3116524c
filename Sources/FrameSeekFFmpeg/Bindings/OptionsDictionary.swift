internal import CFFmpeg

/// An owned `AVDictionary` of options for an open (`avio_open2`, `avformat_open_input`), freed
/// with `av_dict_free`. An open takes the options it knows out of it and leaves the rest.
///
/// Not Sendable: it is made and used by one open, on one thread.
final class OptionsDictionary {
    /// What an open takes by address; nil while no option is set.
    var pointer: OpaquePointer?

    init() {}

    deinit { av_dict_free(&pointer) }

    /// Sets `key` to `value` (`av_dict_set`).
    func set(_ key: String, _ value: String) { av_dict_set(&pointer, key, value, 0) }

    /// Sets `key` to `value` (`av_dict_set_int`).
    func set(_ key: String, _ value: Int64) { av_dict_set_int(&pointer, key, value, 0) }
}
