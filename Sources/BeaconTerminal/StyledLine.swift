import BeaconDomain
/// A line of text for a terminal, in styled pieces: rendered with ANSI colours or without, and
/// cut to a width counted in visible characters (escape codes take none).
struct StyledLine: Equatable {
    enum Style: String {
        case red = "31"
        case green = "32"
        case yellow = "33"
        case cyan = "36"
        case bold = "1"
        case dim = "2"
    }

    private(set) var pieces: [(text: String, style: Style?)] = []

    init(_ text: String = "", _ style: Style? = nil) {
        if !text.isEmpty { pieces.append((text, style)) }
    }

    static func == (left: StyledLine, right: StyledLine) -> Bool {
        left.pieces.elementsEqual(right.pieces) { $0.text == $1.text && $0.style == $1.style }
    }

    mutating func append(_ text: String, _ style: Style? = nil) {
        if !text.isEmpty { pieces.append((text, style)) }
    }

    static func + (line: StyledLine, text: String) -> StyledLine {
        var joined = line
        joined.append(text)
        return joined
    }

    /// At most `width` visible characters; colours only when `colour` is on, each one reset after its piece.
    func render(width: Int, colour: Bool) -> String {
        var remaining = max(width, 0)
        var out = ""
        for piece in pieces where remaining > 0 {
            let text = piece.text.count > remaining ? String(piece.text.prefix(remaining)) : piece.text
            remaining -= text.count
            if colour, let style = piece.style {
                out += "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
            } else {
                out += text
            }
        }
        return out
    }
}
