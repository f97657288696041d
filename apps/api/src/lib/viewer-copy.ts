import type SQLite from 'better-sqlite3';
import type { Db } from '../db/db';
import { pgPoolOf } from '../db/db';
import { sqliteDatabaseOf } from '../db/prepared';
import { findHomeViewer } from '../modules/users/repository';
import type { ViewerRead } from '../modules/users/repository';
import { PgListener } from './pg-listener';

/**
 * What authentication reads on every request — the viewer's row, roles and the home's two
 * stamps — kept in this process's memory (decision 0059, issue 38), filled on first use and kept
 * current by the stamps' moves (migrations 0014 and 0028: every write of what the copy holds
 * moves `u:{userId}`, `content` or `viewers`, whoever writes):
 * - PostgreSQL: the moves arrive by LISTEN/NOTIFY (lib/pg-listener.ts), so another process's
 *   write shows here within the notification's delay. While the listener is down (and until it
 *   is back and the copy has been emptied, which re-reads whatever it missed) every request reads
 *   the database, as before this copy.
 * - SQLite (one process; the importer may write from another connection): before each use, the
 *   highest sequence number of the moves (`max(seq)`, any connection's commits) says whether a
 *   stamp moved since the last look; if so the moves are read by their sequence number
 *   (`seq > ?`). The look is made after the lookups it answers were asked, shared by those of one
 *   turn of the event loop (decision 0070). The copy is exact, never late. During an open
 *   transaction on the connection (its writes may still roll back) the database is read.
 *
 * Read-your-writes: a caller names the stamp it must see at least (`X-Parcours-Stamp`, the stamp
 * a write of theirs answered with); a copy behind it reads the database instead.
 *
 * Each fill remembers the copy's epoch and stores what it read only if no reset happened since
 * and only if it is not older than a move already seen, so a slow read can never put an old row
 * back over a newer move.
 */
export interface Stamp {
  user: number;
  content: number;
}

export const STAMP_HEADER = 'x-parcours-stamp';

/** `{user}.{content}`, as a write's answer carries it and the web app sends it back. */
export function parseStamp(header: unknown): Stamp | null {
  if (typeof header !== 'string') return null;
  const m = /^(\d{1,15})\.(\d{1,15})$/.exec(header);
  return m ? { user: Number(m[1]), content: Number(m[2]) } : null;
}

export function formatStamp(versions: { user: string; content: string }): string {
  return `${versions.user}.${versions.content}`;
}

interface Kept {
  contextId: string;
  version: number;
  /** The read with the stamps it was served with (rebuilt when `content` moves). */
  read: ViewerRead & { versions: { user: string; content: string } };
}

interface UserEntry {
  /** The newest stamp seen for this user (-1: none yet). */
  version: number;
  viewer?: Kept;
}

/** The copies open on a handle (one per app built on it): tests and scripts reach them here. */
const copies = new WeakMap<Db, Set<ViewerCopy>>();
export function viewerCopiesOf(db: Db): ViewerCopy[] {
  return [...(copies.get(db) ?? [])];
}

/** Every copy on `db` has received every commit made before the call (lib/viewer-copy.ts `caughtUp`). */
export async function copiesCaughtUp(db: Db, timeoutMs?: number): Promise<boolean> {
  const results = await Promise.all(viewerCopiesOf(db).map((c) => c.caughtUp(timeoutMs)));
  return results.every(Boolean);
}

/** About the learners active on one process at once; beyond, the copy starts over. */
const MAX_USERS = 50_000;

export class ViewerCopy {
  /** Viewers served from memory and read from the database (tests read them). */
  readonly counts = { memory: 0, database: 0 };
  private users = new Map<string, UserEntry>();
  private content = -1;
  private epoch = 0;
  private listening = false;
  private listener: PgListener | null = null;
  private sqlite: SqliteWatch | null = null;
  private readonly observers = new Set<(key: string, version: number) => void>();
  private readonly stateWaiters: (() => void)[] = [];
  private readonly barriers = new Map<string, () => void>();
  private barrierCount = 0;
  private pendingBarrier: Promise<boolean> | null = null;

  constructor(private readonly db: Db) {
    let set = copies.get(db);
    if (!set) copies.set(db, (set = new Set()));
    set.add(this);
    const pool = pgPoolOf(db);
    const database = sqliteDatabaseOf(db);
    if (pool) {
      this.listener = new PgListener({
        pool,
        onMove: (key, version) => this.move(key, version),
        onState: (listening) => this.setListening(listening),
      });
    } else if (database) {
      this.sqlite = new SqliteWatch(database, (key, version) => this.move(key, version));
    }
    // A handle of neither kind (none in this code) reads the database every time.
  }

  /** The viewer, from memory when the copy is current and not behind `wanted`, else the database. */
  async viewer(contextId: string, userId: string, wanted: Stamp | null): Promise<ViewerRead | undefined> {
    // SQLite: after a look at the database made once this lookup was asked (see SqliteWatch).
    if (this.sqlite ? await this.sqlite.lookedAfter() : this.current()) {
      const entry = this.users.get(userId);
      const kept = entry?.viewer;
      if (
        kept &&
        kept.contextId === contextId &&
        kept.version === entry.version &&
        this.content >= 0 &&
        (!wanted || (entry.version >= wanted.user && this.content >= wanted.content))
      ) {
        this.counts.memory++;
        const content = String(this.content);
        if (kept.read.versions.content !== content)
          kept.read = { ...kept.read, versions: { user: String(kept.version), content } };
        return kept.read;
      }
    }
    return this.fill(contextId, userId);
  }

  /** Reads the viewer from the database and keeps it when that is safe. */
  async fill(contextId: string, userId: string): Promise<ViewerRead | undefined> {
    const epoch = this.epoch;
    // The entry exists before the read, so a move arriving meanwhile is recorded against it.
    if (this.current()) this.entry(userId);
    this.counts.database++;
    const read = await findHomeViewer(this.db, contextId, userId);
    if (read?.versions && this.current() && epoch === this.epoch) {
      const version = Number(read.versions.user);
      this.seeContent(Number(read.versions.content));
      const entry = this.entry(userId);
      if (version > entry.version) entry.version = version;
      if (version === entry.version)
        entry.viewer = { contextId, version, read: { ...read, versions: read.versions } };
    }
    return read;
  }

  /**
   * The stamp to answer a write of `userId` with (PostgreSQL): the viewer read again after the
   * commit — the stamp it reads is at least the one the write left, and the viewer kept with it
   * serves the writer's next request from memory (their write moved their stamp: without this,
   * that request would read them again). None on SQLite: one process, whose copy is synced
   * before every use, so a read there always sees every write before it.
   */
  async stampAfterWrite(contextId: string, userId: string): Promise<string | null> {
    if (!this.listener) return null;
    const read = await this.fill(contextId, userId);
    return read?.versions ? formatStamp(read.versions) : null;
  }

  /** PostgreSQL: whether the listener is in place (tests and the delay script wait for it). */
  get isListening(): boolean {
    return this.listening;
  }

  /** PostgreSQL: the listening backend's pid, for a test that ends it. */
  get listenerPid(): number | null {
    return this.listener?.pid ?? null;
  }

  /** Resolves once the copy is kept current (at once on SQLite). */
  whenListening(): Promise<void> {
    if (!this.listener || this.listening) return Promise.resolve();
    return new Promise((resolve) => this.stateWaiters.push(resolve));
  }

  /**
   * Resolves once every commit made before the call has reached this copy: a marker sent on the
   * channel comes back after them (NOTIFY is delivered in commit order). True at once on SQLite
   * and while the listener is down (the database is read then). An account write without a
   * viewer (a password reset by link) and an administrator's write wait for it before answering
   * (plugins/auth.ts), so the process that wrote shows them at once; calls in the same turn of
   * the event loop share one marker (a marker sent after a commit covers it). A marker that does
   * not come back within `timeoutMs` means a listener that no longer hears: it is reconnected
   * (the copy is emptied meanwhile) and false is answered.
   */
  caughtUp(timeoutMs = 2_000): Promise<boolean> {
    if (!this.listener || !this.listening) return Promise.resolve(true);
    this.pendingBarrier ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      // From here on a new caller needs a new marker: its commit may come after this one's send.
      this.pendingBarrier = null;
      return this.barrier(timeoutMs);
    });
    return this.pendingBarrier;
  }

  private async barrier(timeoutMs: number): Promise<boolean> {
    const pool = pgPoolOf(this.db);
    const channel = this.listener?.channel;
    if (!pool || !channel || !this.listening) return true;
    const marker = `sync:${process.pid}:${++this.barrierCount}`;
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      this.barriers.set(marker, () => resolve(true));
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      await pool.query('select pg_notify($1, $2)', [channel, `${marker} 0`]);
      const ok = await arrived;
      if (!ok) this.listener?.restart();
      return ok;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
      this.barriers.delete(marker);
    }
  }

  /** Every move as it arrives (the notification delay script measures with it). */
  observe(fn: (key: string, version: number) => void): () => void {
    this.observers.add(fn);
    return () => this.observers.delete(fn);
  }

  async close(): Promise<void> {
    copies.get(this.db)?.delete(this);
    await this.listener?.close();
  }

  private current(): boolean {
    if (this.listener) return this.listening;
    if (this.sqlite) return this.sqlite.sync();
    return false;
  }

  private entry(userId: string): UserEntry {
    let entry = this.users.get(userId);
    if (!entry) {
      if (this.users.size >= MAX_USERS) this.reset();
      this.users.set(userId, (entry = { version: -1 }));
    }
    return entry;
  }

  private seeContent(version: number): void {
    if (version > this.content) this.content = version;
  }

  private move(key: string, version: number): void {
    if (key.startsWith('sync:')) return this.barriers.get(key)?.();
    if (key === 'content') this.seeContent(version);
    else if (key === 'viewers') this.reset();
    else if (key.startsWith('u:')) {
      const entry = this.users.get(key.slice(2));
      // A user never read here needs nothing: their first read goes to the database.
      if (entry && version > entry.version) {
        entry.version = version;
        if (entry.viewer && entry.viewer.version < version) delete entry.viewer;
      }
    }
    for (const fn of this.observers) fn(key, version);
  }

  /** Forgets every user (fills under way are not kept); `content` stays: it only grows. */
  private reset(): void {
    this.users = new Map();
    this.epoch++;
  }

  private setListening(listening: boolean): void {
    // Down, or back: either way what is kept may have missed moves. Emptied, it is re-read on use.
    this.reset();
    this.content = -1;
    this.listening = listening;
    if (listening) for (const resolve of this.stateWaiters.splice(0)) resolve();
  }
}

/**
 * SQLite: which stamps moved since the last look.
 *
 * Every move of a stamp, by any connection, numbers its row with the next `seq` (migration
 * 0028; rows are never deleted), so the highest `seq` grows exactly when a stamp moved: one
 * prepared statement on the index `home_versions_seq`, giving one number (no row object). It runs
 * on every authenticated request. Until issue 38 item 4 the probe was `select total_changes(),
 * data_version from pragma_data_version()`, whose pragma virtual table compiles a new
 * `PRAGMA data_version` statement on every call (about 2.9 µs of CPU against 2.1 µs for this
 * one, measured on the bench's demo database); and any write at all (a page answered, a
 * learning record) made it read the moves, where only a moved stamp does now. What this probe
 * still pays is the read transaction any look at the database needs (a WAL read lock taken and
 * given back), which is what keeps the copy exact: a commit by another process before the
 * request is always seen.
 */
class SqliteWatch {
  private probe: SQLite.Statement | null = null;
  private moves: SQLite.Statement | null = null;
  /** The highest `seq` applied to the copy. */
  private seq = 0;
  /** The look every lookup asked since the last one waits for, once they are all asked. */
  private nextLook: Promise<boolean> | null = null;
  /** Looks made for lookups (tests: several lookups of one turn share one). */
  looks = 0;

  constructor(
    private readonly database: SQLite.Database,
    private readonly onMove: (key: string, version: number) => void,
  ) {}

  /**
   * Whether the copy is current, by a look at the database made after the call: the lookups
   * asked while the event loop reads its sockets (one per request read in that turn) share the
   * look made right after, in the same turn's check phase (`setImmediate`). Each still sees
   * every commit made before it was asked, which is what makes the copy exact (a look shared
   * with lookups asked after it would not be); under load one look serves many requests, where
   * each paid its own (issue 38 item 4).
   */
  lookedAfter(): Promise<boolean> {
    return (this.nextLook ??= new Promise<boolean>((resolve) =>
      setImmediate(() => {
        // From here on a new lookup needs a new look: it may be asked after this one's read.
        this.nextLook = null;
        this.looks++;
        try {
          resolve(this.sync());
        } catch {
          // The database is read instead, which reports what went wrong.
          resolve(false);
        }
      }),
    ));
  }

  /** True when the copy is current (after applying what moved); false to read the database. */
  sync(): boolean {
    if (this.database.inTransaction) return false;
    if (!this.probe && !this.prepare()) return false;
    if ((this.probe!.get() as number) <= this.seq) return true;
    for (const [key, version, seq] of this.moves!.all(this.seq) as [string, number, number][]) {
      this.onMove(key, version);
      if (seq > this.seq) this.seq = seq;
    }
    return true;
  }

  private prepare(): boolean {
    try {
      const probe = this.database.prepare('select coalesce(max(seq), 0) from home_versions').pluck();
      this.moves = this.database
        .prepare('select key, version, seq from home_versions where seq > ? order by seq')
        .raw(true);
      this.seq = probe.get() as number;
      this.probe = probe;
      return true;
    } catch {
      // A database without migration 0028 yet: read it every time, and look again next time.
      this.probe = null;
      return false;
    }
  }
}
