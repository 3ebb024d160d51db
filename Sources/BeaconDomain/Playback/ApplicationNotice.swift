/// An entry the application adds to the event history (`notify <code> <text>`), with a code of
/// its own in the area reserved for it: `T99NNN`, `T` the severity band (1 error, 2 warning,
/// 3 info), `NNN` the application's number. Any other code belongs to the daemon and is refused.
package struct ApplicationNotice: Sendable, Equatable {
    /// The longest text taken.
    package static let maxTextLength = 300
    /// The area reserved for the application's entries: the code's second and third digits.
    package static let area = 99

    package let code: Int
    package let text: String

    /// The notice, or why `code` is not the application's.
    package static func make(code: Int, text: String) -> Result<ApplicationNotice, ApplicationNoticeRefusal> {
        guard (100_000...399_999).contains(code), code / 1_000 % 100 == area else {
            return .failure(ApplicationNoticeRefusal(
                reason: "code \(code) is outside the application's area: 199000-199999 (error), 299000-299999 (warning), 399000-399999 (info)"))
        }
        guard !text.isEmpty, text.count <= maxTextLength else {
            return .failure(ApplicationNoticeRefusal(reason: "the text must be 1 to \(maxTextLength) characters"))
        }
        return .success(ApplicationNotice(code: code, text: text))
    }

    private init(code: Int, text: String) {
        self.code = code
        self.text = text
    }

    /// The code's first digit: 1 an error, 2 a warning, 3 info.
    package var band: Int { code / 100_000 }
}

/// Why a `notify` line is refused.
package struct ApplicationNoticeRefusal: Error, Sendable, Equatable {
    package let reason: String
}
