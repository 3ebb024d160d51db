/// Which transfers may run now: at most `limit` per host, the others wait in order of arrival.
///
/// The transfer thread admits a request to libcurl only when its host has a free slot. libcurl
/// could queue them itself (`CURLMOPT_MAX_HOST_CONNECTIONS`), but every easy handle in a multi
/// handle costs every `curl_multi_perform` and `curl_multi_poll` a visit, so a burst of 1 000
/// beacons to one host made each step walk 994 waiting handles. A request waiting here is not on
/// the wire: its total timeout starts when it is admitted.
package struct HostAdmission<Item> {
    let limit: Int
    private var running: [String: Int] = [:]
    private var waiting: [String: WaitingLine] = [:]

    /// Items of one host in order of arrival; `head` skips the taken ones without moving the rest.
    private struct WaitingLine {
        var items: [(id: UInt64, item: Item)] = []
        var head = 0
        var isEmpty: Bool { head == items.count }
    }

    package init(limit: Int) {
        self.limit = max(limit, 1)
    }

    /// Returns `item` when it may start now (it then holds one of the host's slots), or keeps it waiting.
    package mutating func admit(_ item: Item, id: UInt64, host: String) -> Item? {
        if running[host, default: 0] < limit, waiting[host]?.isEmpty ?? true {
            running[host, default: 0] += 1
            return item
        }
        waiting[host, default: WaitingLine()].items.append((id, item))
        return nil
    }

    /// Frees a slot of `host`; returns the next item of that host, which takes the slot over.
    package mutating func release(host: String) -> Item? {
        guard var line = waiting.removeValue(forKey: host), !line.isEmpty else {
            let count = running[host, default: 0] - 1
            running[host] = count > 0 ? count : nil
            return nil
        }
        let next = line.items[line.head].item
        line.head += 1
        if !line.isEmpty {
            if line.head >= 64 && line.head * 2 >= line.items.count {
                line.items.removeFirst(line.head)
                line.head = 0
            }
            waiting[host] = line
        }
        return next
    }

    /// Takes a waiting item out of its line (its transfer was cancelled); nil if none waits with `id`.
    package mutating func removeWaiting(id: UInt64) -> Item? {
        for (host, var line) in waiting {
            guard let index = line.items[line.head...].firstIndex(where: { $0.id == id }) else { continue }
            let removed = line.items.remove(at: index).item
            waiting[host] = line.isEmpty ? nil : line
            return removed
        }
        return nil
    }

    /// Takes every waiting item out, in no particular order across hosts.
    package mutating func removeAllWaiting() -> [Item] {
        defer { waiting = [:] }
        return waiting.values.flatMap { $0.items[$0.head...].map(\.item) }
    }
}
