/**
 * In-memory stores for a caller that opens many short-lived ones, one after another (the harness
 * opens a fresh store for every trial). Each open store has a connection of its own, as one from
 * openStore(":memory:") does; but when a store closes, its connection is emptied and kept with its
 * schema and prepared statements, and the next store opened takes it, instead of creating the
 * schema and preparing every statement again. So a closed store must not be used again (its
 * connection may be serving another). The caller owns the factory (one per thread, say) and
 * closes it when done.
 */
import type Database from "better-sqlite3";
import type { TokenCounter } from "../tokenizer.js";
import { type MemoryStore, type OpenStoreOptions, openConnection, prepareStatements, type Statements, storeOn } from "./store.js";

interface Connection {
  db: Database.Database;
  statements: Statements;
  empty: Database.Statement;
}

export class ScratchStores {
  private readonly idle: Connection[] = [];

  /** A new, empty in-memory store; it behaves as one from openStore(":memory:") does. */
  open(options: OpenStoreOptions): MemoryStore {
    const connection = this.idle.pop() ?? newConnection(options.tokenizer);
    // Released once, however often the store is closed: two later stores must never share it.
    let released = false;
    const release = () => {
      if (!released) this.release(connection);
      released = true;
    };
    return storeOn(connection.db, connection.statements, ":memory:", options.tokenizer, release);
  }

  /**
   * Closes the kept connections. Stores still open stay usable, and keep theirs when they close,
   * for a later store or a later close: the factory itself stays usable.
   */
  close(): void {
    for (const { db } of this.idle.splice(0)) db.close();
  }

  private release(connection: Connection): void {
    // Rows are all the store leaves behind: its indexes and sequence numbers live in the store object.
    connection.empty.run();
    this.idle.push(connection);
  }
}

function newConnection(tokenizer: TokenCounter): Connection {
  const db = openConnection(":memory:", tokenizer, false);
  return { db, statements: prepareStatements(db), empty: db.prepare("DELETE FROM memories") };
}
