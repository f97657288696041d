import type { FastifyInstance } from 'fastify';
import type { Db, DbKind } from '../db/db';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    dbKind: DbKind;
    /** Folder of stored files (imported media); null when the app serves none (some tests). */
    filesDir: string | null;
  }
}

/** Makes the database handle reachable from every route module of the app. */
export function registerDb(app: FastifyInstance, db: Db, dbKind: DbKind, filesDir: string | null): void {
  app.decorate('db', db);
  app.decorate('dbKind', dbKind);
  app.decorate('filesDir', filesDir);
}
