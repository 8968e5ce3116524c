import Foundation

/// The XDG Base Directory specification's rule for one of its folders, shared by the index
/// cache (`XDG_CACHE_HOME`) and the resume store (`XDG_DATA_HOME`).
package enum XDGBaseDirectory {
    /// `environment[variable]` when it is an absolute path, else `home` below the home folder
    /// (`HOME` when it is absolute, else the account's). A relative or empty value is ignored,
    /// as the specification requires: it would put the folder wherever a command happens to run.
    package static func path(_ variable: String, orHome home: String, environment: [String: String]) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        let homeFolder = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return (homeFolder as NSString).appendingPathComponent(home)
    }
}
