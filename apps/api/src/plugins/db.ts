import type { FastifyInstance } from 'fastify';
import type { Db, DbKind } from '../db/db';
import type { FileStore } from '../files/store';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    dbKind: DbKind;
    /** Folder of stored files (imported media); null when the app serves none (some tests). */
    filesDir: string | null;
    /** Where stored files are (disk or S3, files/store.ts); null when the app serves none. */
    files: FileStore | null;
  }
}

/** Makes the database handle reachable from every route module of the app. */
export function registerDb(
  app: FastifyInstance,
  db: Db,
  dbKind: DbKind,
  filesDir: string | null,
  files: FileStore | null = null,
): void {
  app.decorate('db', db);
  app.decorate('dbKind', dbKind);
  app.decorate('filesDir', filesDir);
  app.decorate('files', files);
}
