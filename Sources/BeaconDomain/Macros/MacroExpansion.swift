/// Fills the IAB VAST 4.x macros of a signaling URL with this beacon's values, percent-encoded as
/// VAST asks (every byte but letters, digits and `-._~`). A macro is written `[NAME]`, or
/// percent-encoded `%5BNAME%5D` as some ad servers send it. A VAST macro the daemon does not fill
/// becomes `-1`, one whose value this beacon lacks `-2` (VAST 4.1); any other bracketed text (an
/// IPv6 host, a name VAST does not define) stays as it is.
public enum MacroExpansion {
    /// The signaling URL to request. A URL with no `[` nor `%5B` is returned as it is, without a
    /// byte copied: most URLs hold no macro.
    public static func expand(
        _ url: String, context: MacroContext, settings: MacroSettings, using generator: inout some RandomNumberGenerator
    ) -> String {
        guard mayHoldMacro(url) else { return url }
        let bytes = Array(url.utf8)
        var expanded: [UInt8] = []
        expanded.reserveCapacity(bytes.count + 64)
        // One request, one cache buster: every [CACHEBUSTING] of the URL gets the same.
        var cacheBuster: String?
        var changed = false
        var index = 0
        while index < bytes.count {
            if let (name, end) = macro(in: bytes, at: index),
                let value = value(of: name, context: context, settings: settings, cacheBuster: &cacheBuster, using: &generator)
            {
                expanded += value.utf8
                index = end
                changed = true
            } else {
                expanded.append(bytes[index])
                index += 1
            }
        }
        return changed ? String(decoding: expanded, as: UTF8.self) : url
    }

    /// Every macro VAST 4.x defines.
    static let vastMacros: Set<String> = [
        "ADCATEGORIES", "ADCOUNT", "ADPLAYHEAD", "ADSERVINGID", "ADTYPE", "APIFRAMEWORKS", "APPBUNDLE", "ASSETURI",
        "BLOCKEDADCATEGORIES", "BREAKMAXADLENGTH", "BREAKMAXADS", "BREAKMAXDURATION", "BREAKMINADLENGTH", "BREAKMINDURATION",
        "BREAKPOSITION", "CACHEBUSTING", "CLICKPOS", "CLICKTYPE", "CLIENTUA", "CONTENTID", "CONTENTPLAYHEAD", "CONTENTURI",
        "DEVICEIP", "DEVICEUA", "DOMAIN", "ERRORCODE", "EXTENSIONS", "GDPRCONSENT", "IFA", "IFATYPE", "INVENTORYSTATE",
        "LATLONG", "LIMITADTRACKING", "MEDIAMIME", "MEDIAPLAYHEAD", "OMIDPARTNER", "PAGEURL", "PLACEMENTTYPE",
        "PLAYERCAPABILITIES", "PLAYERSIZE", "PLAYERSTATE", "PODSEQUENCE", "REASON", "REGULATIONS", "SERVERSIDE", "SERVERUA",
        "TIMESTAMP", "TRANSACTIONID", "UNIVERSALADID", "VASTVERSIONS", "VERIFICATIONVENDORS",
    ]

    /// VAST's value of a macro the player does not support.
    static let unsupported = "-1"
    /// VAST's value of a macro whose value is unknown.
    static let unknown = "-2"

    /// The expanded value of macro `name`, or nil when VAST defines no such macro.
    private static func value(
        of name: String, context: MacroContext, settings: MacroSettings, cacheBuster: inout String?,
        using generator: inout some RandomNumberGenerator
    ) -> String? {
        switch name {
        case "TIMESTAMP":
            return UTCTime.formattable.contains(context.occurredAt) ? encoded(timestamp(context.occurredAt)) : unknown
        case "CACHEBUSTING":
            let digits = cacheBuster ?? String(UInt32.random(in: 10_000_000...99_999_999, using: &generator))
            cacheBuster = digits
            return digits
        case "CONTENTPLAYHEAD", "MEDIAPLAYHEAD": return context.contentPosition.map { encoded(clockTime($0)) } ?? unknown
        case "ADPLAYHEAD": return context.adPlayhead.map { encoded(clockTime($0)) } ?? unknown
        case "BREAKPOSITION": return context.breakPosition.map(String.init) ?? unknown
        case "ADCOUNT", "PODSEQUENCE": return context.adPosition.map(String.init) ?? unknown
        case "ERRORCODE": return context.errorCode.map(String.init) ?? unknown
        case "REASON": return context.reason.map(String.init) ?? unknown
        case "DEVICEUA": return encoded(settings.deviceUserAgent)
        case "LIMITADTRACKING": return settings.limitAdTracking ? "1" : "0"
        // A user who limited ad tracking shares no identifier.
        case "IFA": return settings.limitAdTracking ? "" : encoded(settings.ifa)
        case "IFATYPE": return encoded(settings.ifaType)
        default: return vastMacros.contains(name) ? unsupported : nil
        }
    }

    /// Whether `url` has a `[` or a `%5B`: the only ways a macro begins.
    private static func mayHoldMacro(_ url: String) -> Bool {
        var afterPercent = 0
        for byte in url.utf8 {
            switch (afterPercent, byte) {
            case (_, UInt8(ascii: "[")): return true
            case (_, UInt8(ascii: "%")): afterPercent = 1
            case (1, UInt8(ascii: "5")): afterPercent = 2
            case (2, UInt8(ascii: "B")), (2, UInt8(ascii: "b")): return true
            default: afterPercent = 0
            }
        }
        return false
    }

    /// The macro name written at `start` (`[NAME]` or `%5BNAME%5D`, a name of capitals, digits
    /// and `_`) and the index after it, or nil when none begins there.
    private static func macro(in bytes: [UInt8], at start: Int) -> (name: String, end: Int)? {
        let percentForm: Bool
        if bytes[start] == UInt8(ascii: "[") {
            percentForm = false
        } else if percentEncoded(bytes, at: start, "B") {
            percentForm = true
        } else {
            return nil
        }
        let nameStart = start + (percentForm ? 3 : 1)
        var end = nameStart
        while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
        guard end > nameStart else { return nil }
        let name = String(decoding: bytes[nameStart..<end], as: UTF8.self)
        if percentForm { return percentEncoded(bytes, at: end, "D") ? (name, end + 3) : nil }
        return end < bytes.count && bytes[end] == UInt8(ascii: "]") ? (name, end + 1) : nil
    }

    /// Whether `%5` and `letter` (either case) are written at `index`.
    private static func percentEncoded(_ bytes: [UInt8], at index: Int, _ letter: Unicode.Scalar) -> Bool {
        guard index + 2 < bytes.count, bytes[index] == UInt8(ascii: "%"), bytes[index + 1] == UInt8(ascii: "5") else { return false }
        let upper = UInt8(ascii: letter)
        return bytes[index + 2] == upper || bytes[index + 2] == upper + 0x20
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "_")
    }

    /// ISO 8601 with milliseconds and the UTC offset written out, as VAST's
    /// `YYYY-MM-DDThh:mm:ss.mmm+hh:mm`: `2026-11-25T20:13:50.123+00:00`.
    static func timestamp(_ milliseconds: Milliseconds) -> String {
        String(UTCTime.format(milliseconds).dropLast()) + "+00:00"
    }

    /// A span as VAST's `HH:MM:SS.mmm` (hours grow past 99 if they must); a negative span is 0.
    static func clockTime(_ milliseconds: Milliseconds) -> String {
        MediaTime.format(max(milliseconds, 0))
    }

    /// `text` percent-encoded: every byte but letters, digits and `-._~` as `%XX`.
    static func encoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
