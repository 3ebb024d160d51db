import BeaconDomain
import Synchronization

/// The bookmarks kept in the journal's `bookmarks` table (created with the journal's other
/// tables), on a connection of their own: the journal's is its writer thread's alone, and a
/// write-ahead log lets both write the file in turn.
///
/// The connection opens at the first use, once the journal has made its tables, and again after
/// a failure; a failure is thrown as a ``JournalError``, never a crash.
package final class SQLiteBookmarkStore: BookmarkStore {
    private let directory: String
    private let connection = Mutex<SQLiteDatabase?>(nil)

    package init(directory: String) {
        self.directory = directory
    }

    package func saveBookmark(contentID: String, position: Milliseconds, savedAt: Milliseconds) throws(JournalError) {
        try perform("saving a bookmark") { database throws(SQLiteError) in
            try database.withStatement(JournalSchema.saveBookmark) { statement throws(SQLiteError) in
                try statement.bind(contentID, at: 1)
                try statement.bind(position, at: 2)
                try statement.bind(savedAt, at: 3)
                try statement.run()
            }
        }
    }

    package func bookmark(contentID: String) throws(JournalError) -> Milliseconds? {
        try perform("reading a bookmark") { database throws(SQLiteError) in
            try database.withStatement(JournalSchema.selectBookmark) { statement throws(SQLiteError) in
                try statement.bind(contentID, at: 1)
                return try statement.step() ? statement.int64(at: 0) : nil
            }
        }
    }

    private func perform<Value: Sendable>(
        _ operation: String, _ body: (SQLiteDatabase) throws(SQLiteError) -> Value
    ) throws(JournalError) -> Value {
        let path = try JournalFile.prepare(directory: directory)
        let result: Result<Value, SQLiteError> = connection.withLock { connection in
            do throws(SQLiteError) {
                let database: SQLiteDatabase
                if let open = connection {
                    database = open
                } else {
                    database = try SQLiteDatabase(path: path, create: false)
                    database.setBusyTimeout(milliseconds: 5000)
                    connection = database
                }
                return .success(try body(database))
            } catch {
                // Opened again next time: the file may have been replaced or repaired meanwhile.
                connection = nil
                return .failure(error)
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw JournalError(error, while: operation, file: path, directory: directory)
        }
    }
}
