// The SQLite C API as Swift imports it from the SDK's SQLite3 module (the calls the code
// `chainplan stage --format swift --deferred` writes uses), so tests can type-check that code on
// Linux (compiled as a module named SQLite3). Bodies are placeholders: nothing here runs.
public var SQLITE_OK: Int32 { 0 }
public var SQLITE_ROW: Int32 { 100 }
public var SQLITE_OPEN_READONLY: Int32 { 0x0000_0001 }

public func sqlite3_open_v2(_ filename: UnsafePointer<CChar>!, _ ppDb: UnsafeMutablePointer<OpaquePointer?>!, _ flags: Int32,
                            _ zVfs: UnsafePointer<CChar>!) -> Int32 { SQLITE_OK }
public func sqlite3_prepare_v2(_ db: OpaquePointer!, _ zSql: UnsafePointer<CChar>!, _ nByte: Int32, _ ppStmt: UnsafeMutablePointer<OpaquePointer?>!,
                               _ pzTail: UnsafeMutablePointer<UnsafePointer<CChar>?>!) -> Int32 { SQLITE_OK }
public func sqlite3_step(_ pStmt: OpaquePointer!) -> Int32 { SQLITE_ROW }
public func sqlite3_column_int(_ pStmt: OpaquePointer!, _ iCol: Int32) -> Int32 { 0 }
public func sqlite3_finalize(_ pStmt: OpaquePointer!) -> Int32 { SQLITE_OK }
public func sqlite3_close(_ db: OpaquePointer!) -> Int32 { SQLITE_OK }
