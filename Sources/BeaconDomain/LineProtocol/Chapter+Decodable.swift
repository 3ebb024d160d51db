/// `{"index": 1, "offset": 0, "length": 600, "name": "Act 1"}`: the index from 1, the offset and
/// length in seconds (each required, as Media Collection's `chapterStart` requires them), the name optional.
extension Chapter: Decodable {
    private enum CodingKeys: String, CodingKey { case index, offset, length, name }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let index = try container.liberalInteger(forKey: .index, in: 1...Int64(Int32.max), "must be a whole number of 1 or more") else {
            throw container.missing(.index)
        }
        guard let offset = try container.liberalNonNegative(forKey: .offset, "must be a number of seconds, 0 or more") else {
            throw container.missing(.offset)
        }
        guard let length = try container.liberalNonNegative(forKey: .length, "must be a number of seconds, 0 or more") else {
            throw container.missing(.length)
        }
        self.init(index: Int(index), offset: offset, length: length, name: try container.liberalText(forKey: .name))
    }
}
